import { and, asc, eq } from "drizzle-orm";
import Papa from "papaparse";
import { trafficSources } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import type { Page } from "@/lib/core/pagination";
import { POPULARITY_DAYS } from "@/lib/core/traffic";
import { type PopularityRow, popularityPage, popularityRows } from "@/lib/popularity";
import { getSite } from "@/lib/sites/service";
import type { z } from "zod";
import type { trafficPageSchema } from "./schemas";

const urlOf = (domain: string, path: string) => `https://${domain}${path}`;

const asRow = (domain: string) => (row: PopularityRow) => ({ path: row.path, url: urlOf(domain, row.path), visits: row.visits, sources: row.sources });

/** GET /v1/sites/{siteId}/traffic: one page of the site's popularity table, most visited first. */
export async function getTrafficPage(ctx: AccountContext, siteId: number, page: Page): Promise<z.input<typeof trafficPageSchema>> {
  const site = await getSite(ctx, siteId);
  const table = await popularityPage(ctx.db, site.id, page);
  return { data: table.rows.map(asRow(site.domain)), total: table.paths, total_visits: table.visits, days: POPULARITY_DAYS, ...page };
}

/** The whole table as CSV: path, url, visits, then one column per source (`access_log 3`, `plausible 4`, `beacon`), read a page at a time. */
export async function trafficCsv(ctx: AccountContext, siteId: number): Promise<ReadableStream<Uint8Array>> {
  const site = await getSite(ctx, siteId);
  const sources = await ctx.db
    .select({ id: trafficSources.id, kind: trafficSources.kind })
    .from(trafficSources)
    .where(and(eq(trafficSources.siteId, site.id), eq(trafficSources.accountId, ctx.accountId)))
    .orderBy(asc(trafficSources.id));
  const columns = [...sources.map((source) => ({ name: `${source.kind} ${source.id}`, id: source.id as number | null })), { name: "beacon", id: null }];
  const fields = ["path", "url", "visits", ...columns.map((column) => column.name)];
  const rows = popularityRows(ctx.db, site.id);
  const encoder = new TextEncoder();
  let header = true;
  return new ReadableStream({
    async pull(controller) {
      const batch: unknown[][] = [];
      for (let next = await rows.next(); ; next = await rows.next()) {
        if (next.done) break;
        const row = next.value;
        const bySource = new Map(row.sources.map((cell) => [cell.source_id, cell.visits]));
        batch.push([row.path, urlOf(site.domain, row.path), row.visits, ...columns.map((column) => bySource.get(column.id) ?? 0)]);
        if (batch.length === 1_000) break;
      }
      const text = Papa.unparse({ fields, data: batch }, { header, newline: "\r\n", escapeFormulae: true });
      if (text) controller.enqueue(encoder.encode(`${text}\r\n`));
      header = false;
      if (batch.length < 1_000) controller.close();
    },
  });
}
