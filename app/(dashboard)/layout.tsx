import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { currentSession } from "@/lib/accounts/next-auth";
import { AccountSuspendedError } from "@/lib/plans/suspension";

/**
 * Every dashboard page needs a signed-in member of an organization; the API routes check the session
 * again on each call. A user in no organization is sent to create one or wait for an invitation; a
 * suspended organization's members read the sentence its 403 account_suspended carries.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (session?.kind === "no_organization") redirect("/organizations/new");
  if (session?.kind !== "member") redirect("/signin");
  const { user } = session;
  return (
    <Providers role={user.role} mustEnableTwoFactor={user.mustEnableTwoFactor} suspension={user.suspension ? new AccountSuspendedError(user.suspension.reason).message : null}>
      {children}
    </Providers>
  );
}
