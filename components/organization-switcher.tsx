"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import type { Role } from "@/lib/core/roles";
import { QueryProvider } from "./query-provider";

type Organization = { id: number; name: string; role: Role; current: boolean };

/** The organizations of the signed-in user in the tab's query cache: whatever renames or creates one invalidates it. */
export const organizationsKey = ["organizations"] as const;

/** The menu's last choice: not an organization, the page that creates one. */
const NEW_ORGANIZATION = "new";

function OrganizationMenu() {
  const organizations = useQuery({ queryKey: organizationsKey, queryFn: () => api<{ data: Organization[] }>("/api/dashboard/organizations").then((answer) => answer.data) });
  const [busy, setBusy] = useState(false);
  const current = organizations.data?.find((o) => o.current);

  async function choose(value: string) {
    setBusy(true);
    if (value === NEW_ORGANIZATION) {
      window.location.href = "/organizations/new";
      return;
    }
    await api(`/api/dashboard/organizations/${value}/switch`, { method: "POST" });
    // Every page shows the organization's records: start again from its sites.
    window.location.href = "/sites";
  }

  // The menu's place is kept, the same size, while the list loads: the header does not move when it arrives.
  return (
    <span className="flex h-7 w-40 items-center">
      {current ? (
        <label className="flex min-w-0 flex-1 items-center gap-2 text-slate-600">
          <span className="sr-only">Organization</span>
          <select
            aria-label="Organization"
            title={current.name}
            className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-800"
            value={current.id}
            disabled={busy}
            onChange={(event) => choose(event.target.value)}
          >
            {organizations.data?.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
            <option value={NEW_ORGANIZATION}>New organization…</option>
          </select>
          <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600" title="Your role in this organization">
            {current.role}
          </span>
        </label>
      ) : null}
    </span>
  );
}

/** The organization this session works in, the others of the user to switch to (agencies), and a new one. */
export function OrganizationSwitcher() {
  return (
    <QueryProvider>
      <OrganizationMenu />
    </QueryProvider>
  );
}
