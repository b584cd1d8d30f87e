import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoadsTogether } from "@/components/dashboard/loads-together";
import { DeleteUserCard } from "@/components/account/delete-user-card";
import { EmailCard } from "@/components/account/email-card";
import { PasswordForm } from "@/components/account/password-form";
import { SessionsCard } from "@/components/account/sessions-card";
import { TwoFactorCard } from "@/components/account/two-factor-card";
import { PageHeader } from "@/components/ui/card";
import { currentUser } from "@/lib/accounts/next-auth";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/passwords";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await currentUser();
  if (!user) redirect("/signin");
  return (
    <>
      <PageHeader title="Account" subtitle="How you sign in, where you are signed in, and your user." />
      <LoadsTogether>
        <PasswordForm minPasswordLength={MIN_PASSWORD_LENGTH} />
        <TwoFactorCard email={user.email} />
        <SessionsCard />
        <EmailCard email={user.email} />
        <DeleteUserCard email={user.email} />
      </LoadsTogether>
    </>
  );
}
