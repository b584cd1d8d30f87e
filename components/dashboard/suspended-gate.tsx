"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

/**
 * While the operator of this service has suspended the organization, every page says so with the
 * operator's reason, and only the Account page opens under it: the server refuses the rest with 403
 * account_suspended.
 */
export function SuspendedGate({ message, children }: { message: string | null; children: ReactNode }) {
  const pathname = usePathname();
  if (!message) return <>{children}</>;
  return (
    <div className="space-y-6">
      <section role="alert" aria-labelledby="suspended-title" className="rounded-lg border border-red-300 bg-red-50 p-4 sm:p-5">
        <h2 id="suspended-title" className="text-base font-semibold text-red-900">
          Organization suspended
        </h2>
        <p className="mt-1 text-sm text-red-800" data-testid="suspension-message">
          {message}
        </p>
        <p className="mt-2 text-sm text-red-800">
          Its sites, boosts, runs, keys and team are closed meanwhile. Your{" "}
          <Link href="/account" className="font-medium underline">
            Account page
          </Link>{" "}
          stays open, and you can switch to another of your organizations in the header.
        </p>
      </section>
      {pathname === "/account" ? children : null}
    </div>
  );
}
