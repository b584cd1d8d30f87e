"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";

function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5_000, retry: (count, error) => count < 2 && !(error instanceof Error && "status" in error && Number(error.status) < 500) },
    },
  });
}

let browserClient: QueryClient | undefined;

/**
 * One query client per browser tab: the server state of the dashboard, or of the operator console,
 * lives here. Every provider of the tab hands out the same client, so that the header's organization
 * menu and the page below it read one cache (a rename shows in both at once). On the server each
 * render gets its own: a client there would be shared between users.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const client = typeof window === "undefined" ? newQueryClient() : (browserClient ??= newQueryClient());
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
