"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/components/dashboard/api";
import { Check, CheckboxGroup, toggle } from "@/components/ui/choices";
import type { Egress } from "@/drizzle/schema";
import { REGIONS } from "@/lib/regions";

/** The same words as GET /v1/me's `egress`, for a person. */
export const EGRESS_LABELS: Record<Egress, string> = {
  worker: "its regional worker",
  proxy: "its proxy",
  local: "this server's network",
};

type RegionRow = { code: string; name: string; egress: Egress };

/** The region checkboxes of the warm and boost forms, each saying how its calls leave now. */
export function RegionChoices({ value, onChange, error }: { value: string[]; onChange: (regions: string[]) => void; error?: string }) {
  const regions = useQuery({ queryKey: ["regions"], queryFn: () => api<{ data: RegionRow[] }>("/api/dashboard/regions"), staleTime: 30_000 });
  const rows: RegionRow[] = regions.data?.data ?? REGIONS.map((r) => ({ ...r, egress: "local" as const }));
  return (
    <CheckboxGroup
      legend="Regions"
      hint="Each region warms every URL from its own egress: a worker running in that region (npm run worker -- --regions <code>), the region's proxy (PREHEAT_REGION_PROXY_<CODE>), or this server's own network."
      error={error}
    >
      {rows.map((region) => (
        <Check
          key={region.code}
          label={
            <span>
              {region.name} ({region.code}) {regions.data && <span className="text-xs text-slate-500">via {EGRESS_LABELS[region.egress]}</span>}
            </span>
          }
          name="region"
          checked={value.includes(region.code)}
          onChange={(on) => onChange(toggle(value, region.code, on))}
        />
      ))}
    </CheckboxGroup>
  );
}
