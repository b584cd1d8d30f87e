"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import type { Role } from "@/lib/core/roles";
import { RoleProvider } from "./dashboard/role";
import { TwoFactorGate } from "./dashboard/two-factor-gate";

/** One query client per browser tab: the dashboard's server state lives here; and the member's role. */
export function Providers({ role, mustEnableTwoFactor, children }: { role: Role; mustEnableTwoFactor: boolean; children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 5_000, retry: (count, error) => count < 2 && !(error instanceof Error && "status" in error && Number(error.status) < 500) },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <RoleProvider role={role}>
        <TwoFactorGate required={mustEnableTwoFactor}>{children}</TwoFactorGate>
      </RoleProvider>
    </QueryClientProvider>
  );
}
