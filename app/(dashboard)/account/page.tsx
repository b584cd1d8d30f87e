import type { Metadata } from "next";
import { PasswordForm } from "@/components/account/password-form";
import { SessionsCard } from "@/components/account/sessions-card";
import { PageHeader } from "@/components/ui/card";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/passwords";

export const metadata: Metadata = { title: "Account" };

export default function AccountPage() {
  return (
    <>
      <PageHeader title="Account" subtitle="How you sign in." />
      <PasswordForm minPasswordLength={MIN_PASSWORD_LENGTH} />
      <SessionsCard />
    </>
  );
}
