import { z } from "zod";

/** How a region's calls leave: a regional worker, the region's proxy, or the worker's own network. */
export type Egress = "worker" | "proxy" | "local";

/** The union of both region lists of the spec; `uk` is accepted as an alias of `gb`. `area`: where its visitors are (a country, or a continent). */
export const REGIONS = [
  { code: "fr", name: "France", area: { country: "FR" } },
  { code: "de", name: "Germany", area: { country: "DE" } },
  { code: "es", name: "Spain", area: { country: "ES" } },
  { code: "gb", name: "United Kingdom", area: { country: "GB" } },
  { code: "us", name: "United States", area: { country: "US" } },
  { code: "eu", name: "Europe", area: { continent: "EU" } },
  { code: "as", name: "Asia", area: { continent: "AS" } },
] as const;

export type RegionCode = (typeof REGIONS)[number]["code"];
const REGION_CODES = REGIONS.map((r) => r.code) as [RegionCode, ...RegionCode[]];
const REGION_ALIASES: Record<string, RegionCode> = { uk: "gb" };

export const regionCodeSchema = z
  .enum([...REGION_CODES, "uk"], { error: () => `must be one of ${REGION_CODES.join(", ")} (uk is accepted for gb)` })
  .transform((code): RegionCode => REGION_ALIASES[code] ?? (code as RegionCode))
  .meta({ description: "Region code; `uk` is accepted as an alias of `gb` and stored as `gb`." });

/** Regions requested for a run; duplicates (e.g. `gb` and `uk`) collapse to one. */
export const regionListSchema = z
  .array(regionCodeSchema)
  .min(1, "must list at least one region")
  .transform((codes) => [...new Set(codes)])
  .meta({ description: "Regions to warm from, each an egress of its own." });

export const regionCodeOutput = z.enum(REGION_CODES).meta({ id: "RegionCode", description: "A stored region code (`uk` is stored as `gb`)." });

export const egressSchema = z.enum(["worker", "proxy", "local"] as const satisfies readonly Egress[]).meta({
  id: "Egress",
  description:
    "How a region's calls leave Preheat: `worker` (a Preheat worker placed for that region), `proxy` (a proxy exit in that region), or `local` (Preheat's own network, wherever the service runs: the region's visitors may be far from it).",
});

export const regionSchema = z
  .object({
    code: z.enum(REGION_CODES),
    name: z.string(),
    egress: egressSchema,
    shares_egress_with: z.array(z.enum(REGION_CODES)).meta({
      description:
        "The other regions whose calls leave through the same network now. Their calls reach the same CDN points of presence, so warming several of them fills one cache, not one per region (the calls are still made and counted).",
    }),
  })
  .meta({ id: "Region", description: "A region the caller can warm from, how its calls leave now, and which regions share that egress." });

type RegionExit = { code: RegionCode; name: string; egress: Egress; shares_egress_with: readonly RegionCode[] };

/** The groups of `chosen` regions that share one egress (each of two or more regions), as the estimate and the forms warn of them. */
export function sharedEgressGroups(regions: readonly RegionExit[], chosen: readonly string[]): RegionCode[][] {
  const groups: RegionCode[][] = [];
  for (const region of regions.filter((r) => chosen.includes(r.code))) {
    if (groups.some((group) => group.includes(region.code))) continue;
    const group = [region.code, ...region.shares_egress_with.filter((code) => chosen.includes(code))];
    if (group.length > 1) groups.push(group);
  }
  return groups;
}

const EGRESS_WORDS: Record<Egress, string> = { worker: "one worker's network", proxy: "one proxy", local: "Preheat's own network" };

/** The warning for one such group: "fr, de and us leave through Preheat's own network: …". */
export function sharedEgressWarning(regions: readonly RegionExit[], group: readonly RegionCode[]): string {
  const egress = regions.find((r) => r.code === group[0])?.egress ?? "local";
  const names = group.length > 1 ? `${group.slice(0, -1).join(", ")} and ${group.at(-1)}` : group.join("");
  return `${names} leave through ${EGRESS_WORDS[egress]}: their calls reach the same CDN points of presence, so they warm one cache, not one per region (each region's calls are still made and counted).`;
}
