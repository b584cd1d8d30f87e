import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { OperatorNav } from "@/components/operator/operator-nav";
import { QueryProvider } from "@/components/query-provider";
import { currentUser } from "@/lib/accounts/next-auth";

/**
 * The operator console, for the users `users grant-operator` named. Anyone else, signed in or not,
 * finds no page here (404, not a sign-in redirect): the console's existence does not leak. Its API
 * routes check again on every call (withOperator).
 */
export default async function OperatorLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user?.operator) notFound();
  return (
    <QueryProvider>
      <div className="space-y-6">
        <OperatorNav />
        {children}
      </div>
    </QueryProvider>
  );
}
