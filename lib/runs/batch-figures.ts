import { sql } from "drizzle-orm";
import { inIdsPlaceholder } from "@/lib/db/recordset";
import { runBatches, runs } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { executePrepared } from "@/lib/db/prepared";
import { rowsOf } from "@/lib/db/rows";
import type { WarmedPlan } from "./advice";
import type { CallPlan } from "./calls";

/** A group of batches' figures, summed. */
export type BatchSums = { total: number; ok: number; failed: number; hits: number; timeMs: number; hitMs: number; missMs: number; bypassed: number; plannedCalls: number };

/** What a run was asked to do, as its summary needs it. */
type RunPlan = CallPlan & WarmedPlan & { verify: boolean; verifyVisitors: boolean };

/**
 * What a run's summary is made of, summed over its batches: `sums` per purpose and visitor (and per
 * region, in RunFigures); `counts` are the jsonb maps of counts (warming and visitor batches);
 * `variants` count warming batches only.
 */
export type SummaryFigures = {
  plan: RunPlan;
  sums: { purpose: string; region: string | null; visitor: string | null; sums: BatchSums }[];
  counts: { purpose: string; visitor: string | null; map: CountMap; key: string; n: number }[];
  variants: Record<string, { calls: number; hits: number }>;
};

/** A run's figures with its breakdowns: `sums` per region too, and its warming batches' PoPs and egresses. */
export type RunFigures = Omit<SummaryFigures, "sums"> & {
  sums: (SummaryFigures["sums"][number] & { region: string })[];
  pops: { region: string; pop: string; calls: number; hits: number; hitMs: number; misses: number; missMs: number }[];
  egress: { region: string; egress: string; calls: number }[];
};

const COUNT_MAPS = ["not_cached", "pops", "blocked_by", "answer_headers"] as const;
export type CountMap = (typeof COUNT_MAPS)[number];

const ofRuns = (column: string) => inIdsPlaceholder(sql.raw(column), "ids");
const n = (expression: string) => sql`sum(${sql.raw(expression)})::float8`;
const none = (count: number) => sql.raw(Array.from({ length: count }, () => "null").join(", "));

/**
 * One statement for the runs' figures: their batches read once, then each aggregate a part of one
 * answer. A run's detail made ten statements in four rounds before (the summary's four, the regions',
 * PoPs', variants' and egresses' breakdowns), each waiting for its turn on the embedded database
 * behind the warming (docs/benchmarks.md). Numbers are float8, which both drivers read as numbers.
 * Parts: sums, count, variant, plan; with `breakdown`, sums per region, pop and egress. The
 * breakdown's parts are left out of lists' summaries: they cost as much as the rest.
 */
const figuresStatement = (breakdown: boolean) => () => {
  const counted = sql.join(
    COUNT_MAPS.map((map) => sql`select ${map}::text as map, key, value from jsonb_each_text(b.${sql.identifier(map)})`),
    sql` union all `,
  );
  return sql`
    with b as materialized (
      select run_id, purpose, region, total_calls, successful_calls, failed_calls, cache_hits, response_time_ms_total,
             hit_ms_total, miss_ms_total, bypassed_calls, not_cached, pops, blocked_by, answer_headers, variant_figures,
             pop_figures, egress_calls,
             case when purpose = 'visitors' then calls -> 0 ->> 'visitor' end as visitor,
             case when purpose = 'visitors' then jsonb_array_length(calls) end as planned_calls
      from ${runBatches} where ${ofRuns("run_id")}
    )
    select 'sums'::text as part, run_id, purpose, ${breakdown ? sql.raw("region") : sql.raw("null::text")} as region, visitor,
           null::text as name, null::text as key,
           ${n("total_calls")} as n1, ${n("successful_calls")} as n2, ${n("failed_calls")} as n3, ${n("cache_hits")} as n4,
           ${n("response_time_ms_total")} as n5, ${n("hit_ms_total")} as n6, ${n("miss_ms_total")} as n7, ${n("bypassed_calls")} as n8,
           ${n("planned_calls")} as n9
      from b group by run_id, purpose, visitor${breakdown ? sql.raw(", region") : sql.raw("")}
    union all
    select 'count', b.run_id, b.purpose, null, b.visitor, c.map, c.key, ${n("c.value::int")}, ${none(8)}
      from b cross join lateral (${counted}) c
      where b.purpose <> 'verify' group by b.run_id, b.purpose, b.visitor, c.map, c.key
    union all
    select 'variant', b.run_id, b.purpose, null, null, null, f.key, ${n("(f.value ->> 'calls')::int")}, ${n("(f.value ->> 'hits')::int")}, ${none(7)}
      from b, jsonb_each(b.variant_figures) f where b.purpose = 'warm' group by b.run_id, b.purpose, f.key
    ${breakdown ? breakdownParts : sql``}
    union all
    select 'plan', r.id, null, null, null,
           jsonb_build_object('verify', r.verify, 'verifyVisitors', r.verify_visitors, 'variations', r.variations,
                              'requestProfile', r.request_profile, 'regions', r.regions)::text,
           null, ${none(9)}
      from ${runs} r where ${ofRuns("r.id")}`;
};

const breakdownParts = sql`
    union all
    select 'pop', b.run_id, b.purpose, b.region, null, null, p.key, ${n("(p.value ->> 'calls')::int")}, ${n("(p.value ->> 'hits')::int")},
           ${n("(p.value ->> 'hit_ms')::bigint")}, ${n("(p.value ->> 'misses')::int")}, ${n("(p.value ->> 'miss_ms')::bigint")}, ${none(4)}
      from b, jsonb_each(b.pop_figures) p where b.purpose = 'warm' group by b.run_id, b.purpose, b.region, p.key
    union all
    select 'egress', b.run_id, b.purpose, b.region, null, null, e.key, ${n("e.value::int")}, ${none(8)}
      from b, jsonb_each_text(b.egress_calls) e where b.purpose = 'warm' group by b.run_id, b.purpose, b.region, e.key`;

type FigureRow = {
  part: "sums" | "count" | "variant" | "pop" | "egress" | "plan";
  run_id: number;
  purpose: string | null;
  region: string | null;
  visitor: string | null;
  name: string | null;
  key: string | null;
  n1: number | null;
  n2: number | null;
  n3: number | null;
  n4: number | null;
  n5: number | null;
  n6: number | null;
  n7: number | null;
  n8: number | null;
  n9: number | null;
};

/** The summary's figures of each run that exists among `runIds`, in one statement (see figuresStatement). */
export function summaryFiguresOfRuns(db: Database, runIds: readonly number[]): Promise<Map<number, SummaryFigures>> {
  return readFigures(db, runIds, false);
}

/** Every figure of each run that exists among `runIds`, its breakdowns' too, in one statement. */
export function figuresOfRuns(db: Database, runIds: readonly number[]): Promise<Map<number, RunFigures>> {
  return readFigures(db, runIds, true) as Promise<Map<number, RunFigures>>;
}

async function readFigures(db: Database, runIds: readonly number[], breakdown: boolean): Promise<Map<number, SummaryFigures | RunFigures>> {
  const perRun = new Map<number, RunFigures>();
  if (!runIds.length) return perRun;
  const shape = breakdown ? "run_figures" : "run_summary_figures";
  const rows = rowsOf<FigureRow>(await executePrepared(db, shape, figuresStatement(breakdown), { ids: JSON.stringify(runIds) }));
  // The plan first: a run with no plan row does not exist (any more), and its batches are not read.
  for (const row of rows) {
    if (row.part === "plan") perRun.set(Number(row.run_id), { plan: JSON.parse(row.name!), sums: [], counts: [], variants: {}, pops: [], egress: [] });
  }
  for (const row of rows) {
    const figures = perRun.get(Number(row.run_id));
    if (!figures) continue;
    const num = (value: number | null) => Number(value ?? 0);
    switch (row.part) {
      case "sums":
        figures.sums.push({
          purpose: row.purpose!,
          region: row.region as string,
          visitor: row.visitor,
          sums: {
            total: num(row.n1),
            ok: num(row.n2),
            failed: num(row.n3),
            hits: num(row.n4),
            timeMs: num(row.n5),
            hitMs: num(row.n6),
            missMs: num(row.n7),
            bypassed: num(row.n8),
            plannedCalls: num(row.n9),
          },
        });
        break;
      case "count":
        figures.counts.push({ purpose: row.purpose!, visitor: row.visitor, map: row.name as CountMap, key: row.key!, n: num(row.n1) });
        break;
      case "variant":
        figures.variants[row.key!] = { calls: num(row.n1), hits: num(row.n2) };
        break;
      case "pop":
        figures.pops.push({ region: row.region!, pop: row.key!, calls: num(row.n1), hits: num(row.n2), hitMs: num(row.n3), misses: num(row.n4), missMs: num(row.n5) });
        break;
      case "egress":
        figures.egress.push({ region: row.region!, egress: row.key!, calls: num(row.n1) });
        break;
    }
  }
  return perRun;
}

/** The sums of the run's batches of `purpose` that pass `keep`, added together. */
export function sumOf<Figures extends SummaryFigures>(figures: Figures, purpose: string, keep: (entry: Figures["sums"][number]) => boolean = () => true): BatchSums {
  const total: BatchSums = { total: 0, ok: 0, failed: 0, hits: 0, timeMs: 0, hitMs: 0, missMs: 0, bypassed: 0, plannedCalls: 0 };
  for (const entry of figures.sums) {
    if (entry.purpose !== purpose || !keep(entry)) continue;
    for (const field of Object.keys(total) as (keyof BatchSums)[]) total[field] += entry.sums[field];
  }
  return total;
}

/** The warming batches' map of counts `map`, summed. */
export function warmCounts(figures: SummaryFigures, map: CountMap): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of figures.counts) if (entry.purpose === "warm" && entry.map === map) counts[entry.key] = entry.n;
  return counts;
}
