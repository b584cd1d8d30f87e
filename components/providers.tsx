"use client";

import type { ReactNode } from "react";
import type { Role } from "@/lib/core/roles";
import { RoleProvider } from "./dashboard/role";
import { SuspendedGate } from "./dashboard/suspended-gate";
import { TwoFactorGate } from "./dashboard/two-factor-gate";
import { QueryProvider } from "./query-provider";

/** The dashboard's query client, the member's role, and what the organization's state leaves open. */
export function Providers({ role, mustEnableTwoFactor, suspension, children }: { role: Role; mustEnableTwoFactor: boolean; suspension: string | null; children: ReactNode }) {
  return (
    <QueryProvider>
      <RoleProvider role={role}>
        <SuspendedGate message={suspension}>
          <TwoFactorGate required={mustEnableTwoFactor}>{children}</TwoFactorGate>
        </SuspendedGate>
      </RoleProvider>
    </QueryProvider>
  );
}
