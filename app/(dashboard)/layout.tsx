import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { currentUser } from "@/lib/accounts/next-auth";
import { AccountSuspendedError } from "@/lib/plans/suspension";

/**
 * Every dashboard page needs a signed-in user; the API routes check the session again on each call.
 * A suspended organization's members read the sentence its 403 account_suspended carries.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) redirect("/signin");
  return (
    <Providers role={user.role} mustEnableTwoFactor={user.mustEnableTwoFactor} suspension={user.suspension ? new AccountSuspendedError(user.suspension.reason).message : null}>
      {children}
    </Providers>
  );
}
