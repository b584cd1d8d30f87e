import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { currentUser } from "@/lib/accounts/next-auth";
import { suspensionMessage } from "@/lib/plans/suspension";

/** Every dashboard page needs a signed-in user; the API routes check the session again on each call. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) redirect("/signin");
  return (
    <Providers role={user.role} mustEnableTwoFactor={user.mustEnableTwoFactor} suspension={user.suspension ? suspensionMessage(user.suspension.reason) : null}>
      {children}
    </Providers>
  );
}
