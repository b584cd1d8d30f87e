import { z } from "zod";
import type { Egress } from "@/drizzle/schema";

/** The union of both region lists of the spec; `uk` is accepted as an alias of `gb`. */
export const REGIONS = [
  { code: "fr", name: "France" },
  { code: "de", name: "Germany" },
  { code: "es", name: "Spain" },
  { code: "gb", name: "United Kingdom" },
  { code: "us", name: "United States" },
  { code: "eu", name: "Europe" },
  { code: "as", name: "Asia" },
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
    "How a region's calls leave the service: `worker` (a worker process started for that region, e.g. `npm run worker -- --regions de`, seen in the last minute), `proxy` (the region's proxy, PREHEAT_REGION_PROXY_<CODE>), or `local` (the server's own network).",
});

export const regionSchema = z
  .object({ code: z.enum(REGION_CODES), name: z.string(), egress: egressSchema })
  .meta({ id: "Region", description: "A region the caller can warm from, and how its calls leave now." });
