"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/components/dashboard/api";
import { Check, CheckboxGroup, toggle } from "@/components/ui/choices";
import type { Egress } from "@/lib/core/regions";
import { REGIONS, type RegionCode, sharedEgressGroups, sharedEgressWarning } from "@/lib/core/regions";

/** The same words as GET /v1/me's `egress`, for a person. */
export const EGRESS_LABELS: Record<Egress, string> = {
  worker: "a worker placed for it",
  proxy: "a proxy in the region",
  local: "Preheat's own network",
};

type RegionRow = { code: RegionCode; name: string; egress: Egress; shares_egress_with: RegionCode[] };

/** The region checkboxes of the warm and boost forms, each saying how its calls leave now. */
export function RegionChoices({ value, onChange, error }: { value: string[]; onChange: (regions: string[]) => void; error?: string }) {
  const regions = useQuery({ queryKey: ["regions"], queryFn: () => api<{ data: RegionRow[] }>("/api/dashboard/regions"), staleTime: 30_000 });
  const rows: RegionRow[] = regions.data?.data ?? REGIONS.map((r) => ({ code: r.code, name: r.name, egress: "local" as const, shares_egress_with: [] }));
  const shared = regions.data ? sharedEgressGroups(rows, value) : [];
  return (
    <CheckboxGroup
      legend="Regions"
      hint="Each chosen region warms every URL again, from the network its calls leave through. Regions that leave through the same network reach the same CDN points of presence, so they warm one cache between them."
      error={error}
    >
      {rows.map((region) => (
        <Check
          key={region.code}
          label={
            <span>
              {region.name} ({region.code}){" "}
              {regions.data && (
                <span className="text-xs text-slate-500">
                  via {EGRESS_LABELS[region.egress]}
                  {region.shares_egress_with.length ? `, shared with ${region.shares_egress_with.join(", ")}` : ""}
                </span>
              )}
            </span>
          }
          name="region"
          checked={value.includes(region.code)}
          onChange={(on) => onChange(toggle(value, region.code, on))}
        />
      ))}
      {shared.map((group) => (
        <p key={group.join()} role="note" className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
          {sharedEgressWarning(rows, group)}
        </p>
      ))}
    </CheckboxGroup>
  );
}
