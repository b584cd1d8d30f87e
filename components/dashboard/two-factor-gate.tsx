"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";

/**
 * While the organization requires two-factor sign-in and the member has not turned it on, only the
 * Account page opens (the server refuses the rest with 403 two_factor_required).
 */
export function TwoFactorGate({ required, children }: { required: boolean; children: ReactNode }) {
  const pathname = usePathname();
  if (!required || pathname === "/account") return <>{children}</>;
  return (
    <Card title="Two-factor sign-in required">
      <p className="text-sm text-slate-700">
        This organization asks every member to sign in with a second factor. Turn on two-factor sign-in on the{" "}
        <Link href="/account" className="font-medium text-brand-700 underline">
          Account page
        </Link>{" "}
        with an authenticator app, then come back. You can also switch to another of your organizations in the header.
      </p>
    </Card>
  );
}
