"use client";

import { useEffect, useState } from "react";
import { api } from "@/components/dashboard/api";
import type { Role } from "@/lib/core/roles";

type Organization = { id: number; name: string; role: Role; current: boolean };

/** The organization this session works in, and the others of the user to switch to (agencies). */
export function OrganizationSwitcher() {
  const [organizations, setOrganizations] = useState<Organization[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<{ data: Organization[] }>("/api/dashboard/organizations")
      .then((answer) => setOrganizations(answer.data))
      .catch(() => setOrganizations([]));
  }, []);
  const current = organizations.find((o) => o.current);

  async function switchTo(id: number) {
    setBusy(true);
    await api(`/api/dashboard/organizations/${id}/switch`, { method: "POST" });
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
            disabled={busy || organizations.length < 2}
            onChange={(event) => switchTo(Number(event.target.value))}
          >
            {organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
          <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600" title="Your role in this organization">
            {current.role}
          </span>
        </label>
      ) : null}
    </span>
  );
}
