import type { RunDetail } from "@/components/dashboard/types";

type RegionRow = RunDetail["regions_breakdown"][number];

const REACHED_WORDS: Record<RegionRow["reached"], string> = {
  in_region: "in the region",
  elsewhere: "outside the region",
  unknown: "PoP not known",
};

/** The PoPs that answered one region's calls (three at most, with their country), and whether they are the region's own. */
export function RegionPops({ region }: { region: RegionRow }) {
  if (!region.pops.length) return <span className="text-slate-500">{region.total_calls ? "no PoP named" : "—"}</span>;
  const shown = region.pops.slice(0, 3).map((p) => (p.country ? `${p.pop} (${p.country})` : p.pop));
  const more = region.pops.length - shown.length;
  return (
    <span className={region.reached === "elsewhere" ? "font-medium text-amber-800" : undefined}>
      {shown.join(", ")}
      {more > 0 ? ` +${more}` : ""} <span className="text-xs text-slate-500">· {REACHED_WORDS[region.reached]}</span>
    </span>
  );
}

/**
 * What could make the per-region figures mislead, said where they appear: regions that left
 * through one network (their figures after the first are that one cache seen again), and regions
 * answered by PoPs outside them.
 */
export function RegionTruthNotes({ regions }: { regions: RegionRow[] }) {
  const local = regions.filter((r) => r.egress === "local" && r.total_calls > 0).map((r) => r.region);
  const elsewhere = regions.filter((r) => r.reached === "elsewhere").map((r) => r.region);
  if (local.length < 2 && !elsewhere.length) return null;
  return (
    <div role="note" className="mb-3 space-y-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      {local.length > 1 ? (
        <p>
          {local.join(", ")} left through Preheat&apos;s own network, one network for all of them: their calls reached the same CDN points of presence, so the regions after the first mostly see the
          cache the first one warmed, not caches near their own visitors.
        </p>
      ) : null}
      {elsewhere.length ? <p>{elsewhere.join(", ")}: most calls were answered by PoPs outside the region, so its visitors&apos; PoPs were not warmed.</p> : null}
    </div>
  );
}
