"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { api } from "@/components/dashboard/api";
import type { ApiKeyView } from "@/components/dashboard/types";
import { ErrorNote } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { TableScroll } from "@/components/ui/table-scroll";

/** How a keys list differs between the dashboard (one's organization) and the operator console (any user's). */
export type KeysTableOptions = {
  /** Where a key is revoked: its DELETE route. */
  revokePath: (id: number) => string;
  /** The query that lists the keys, refreshed after a revocation. */
  queryKey: readonly unknown[];
  /** The sites a key is limited to, in words. */
  sitesOf: (ids: number[] | null) => string;
  /** Who made a key that no member made. */
  noCreator: string;
  /** Wraps the Revoke button (the dashboard shows it to admins only). */
  revokeGate?: (button: ReactNode) => ReactNode;
  /** What the name cell shows under the name beside the prefix (the operator sees the key's id). */
  showId?: boolean;
  rowTestId: string;
};

function KeyRow({ apiKey, options }: { apiKey: ApiKeyView; options: KeysTableOptions }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api(options.revokePath(apiKey.id), { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: options.queryKey }),
  });
  const button = <ConfirmButton label="Revoke" confirmLabel="Revoke key" question="Revoke it? Calls with it fail at once." busy={revoke.isPending} onConfirm={() => revoke.mutate()} />;
  return (
    <tr className="align-top" data-testid={options.rowTestId}>
      <td className="py-3 pr-4">
        <p className="font-medium">{apiKey.name}</p>
        <code className="text-xs text-slate-500">{options.showId ? `#${apiKey.id} · ${apiKey.prefix}…` : `${apiKey.prefix}…`}</code>
      </td>
      <td className="py-3 pr-4 text-xs text-slate-600">{apiKey.scopes.join(", ")}</td>
      <td className="py-3 pr-4 text-xs text-slate-600" data-testid="api-key-sites">
        {options.sitesOf(apiKey.site_ids)}
      </td>
      <td className="py-3 pr-4 text-xs text-slate-600">{apiKey.created_by ?? options.noCreator}</td>
      <td className="py-3 pr-4">
        <StatusBadge status={apiKey.state} />
      </td>
      <td className="py-3 pr-4 text-sm text-slate-600">
        <LocalTime value={apiKey.last_used_at} empty="never" />
      </td>
      <td className="py-3 pr-4 text-sm text-slate-600">
        <LocalTime value={apiKey.expires_at} empty="never" />
      </td>
      <td className="py-3 text-right">
        {apiKey.state === "active" ? (options.revokeGate ? options.revokeGate(button) : button) : null}
        <ErrorNote error={revoke.error} />
      </td>
    </tr>
  );
}

/** A list of API keys with their scopes, sites, creator, state and dates, each revocable: one table for the dashboard and the operator console. */
export function KeysTable({ keys, options }: { keys: ApiKeyView[]; options: KeysTableOptions }) {
  return (
    <TableScroll label="API keys">
      <table className="w-full min-w-[860px] text-left text-sm">
        <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
          <tr>
            <th className="py-2 pr-4 font-medium">Name</th>
            <th className="py-2 pr-4 font-medium">Scopes</th>
            <th className="py-2 pr-4 font-medium">Sites</th>
            <th className="py-2 pr-4 font-medium">Created by</th>
            <th className="py-2 pr-4 font-medium">State</th>
            <th className="py-2 pr-4 font-medium">Last used</th>
            <th className="py-2 pr-4 font-medium">Expires</th>
            <th className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {keys.map((key) => (
            <KeyRow key={key.id} apiKey={key} options={options} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
