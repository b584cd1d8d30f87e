import { and, desc, eq, lte, sql } from "drizzle-orm";
import { trafficSources } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import { ConflictError, InvalidError, notFound } from "@/lib/core/errors";
import type { TrafficReadStatus, TrafficSourceKind, TrafficSourceSettings } from "@/lib/core/traffic";
import type { Database } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { sendJob } from "@/lib/jobs";
import { encryptSecret, NO_SECRETS_KEY, secretsKeyConfigured } from "@/lib/secrets";
import { getSite } from "@/lib/sites/service";
import { parseServiceAccountKey } from "./analytics";
import { type CreateTrafficSourceInput, DEFAULT_READ_EVERY_HOURS, type TrafficSourcePayload } from "./schemas";

export type TrafficSourceRow = typeof trafficSources.$inferSelect;

/** What a source's key is sealed for: a value sealed for another use does not open here. */
export const TRAFFIC_SECRET_PURPOSE = "traffic-source";

const DEFAULT_NAMES: Record<TrafficSourceKind, string> = { access_log: "Access log", plausible: "Plausible", ga4: "Google Analytics 4" };

export function toTrafficSource(row: TrafficSourceRow): TrafficSourcePayload {
  return {
    id: row.id,
    site_id: row.siteId,
    kind: row.kind as TrafficSourceKind,
    name: row.name,
    settings: row.settings,
    read_every_hours: row.readEveryHours,
    next_read_at: row.nextReadAt?.toISOString() ?? null,
    status: row.lastStatus as TrafficReadStatus,
    message: row.lastMessage,
    last_read_at: row.lastReadAt?.toISOString() ?? null,
    counts: row.lastCounts ?? null,
    latest_day: row.latestDay,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function sealed(field: string, secret: string): string {
  if (!secretsKeyConfigured()) throw new InvalidError(`${field}: ${NO_SECRETS_KEY}.`, [{ field, message: NO_SECRETS_KEY }]);
  return encryptSecret(secret, TRAFFIC_SECRET_PURPOSE);
}

/** Whether the source is read by Preheat (on its schedule, on demand), rather than only sent (an uploaded log). */
function isFetched(row: Pick<TrafficSourceRow, "kind" | "settings">): boolean {
  return row.kind !== "access_log" || Boolean(row.settings.url);
}

/** The settings and sealed secret of a new source, its key checked first: a bad key is a 422 now, not a failed read later. */
function settingsOf(input: CreateTrafficSourceInput): { settings: TrafficSourceSettings; secret: string | null } {
  switch (input.kind) {
    case "access_log":
      return { settings: input.url ? { url: input.url } : {}, secret: null };
    case "plausible":
      return { settings: { site_id: input.site_id }, secret: sealed("api_key", input.api_key) };
    case "ga4": {
      const text = typeof input.service_account_key === "string" ? input.service_account_key : JSON.stringify(input.service_account_key);
      const key = parseServiceAccountKey(text);
      if (!key.ok) throw new InvalidError(`service_account_key: ${key.message}.`, [{ field: "service_account_key", message: key.message }]);
      return { settings: { property_id: input.property_id, client_email: key.clientEmail }, secret: sealed("service_account_key", text) };
    }
  }
}

/**
 * Adds a traffic source to the site. One Preheat reads (a log's URL, an analytics tool) is read at
 * once, then every `read_every_hours` (daily by default); an uploaded log waits for its upload.
 */
export async function createTrafficSource(ctx: AccountContext, siteId: number, input: CreateTrafficSourceInput): Promise<TrafficSourcePayload> {
  const site = await getSite(ctx, siteId);
  const { settings, secret } = settingsOf(input);
  const fetched = isFetched({ kind: input.kind, settings });
  const readEveryHours = fetched ? (input.read_every_hours === undefined ? DEFAULT_READ_EVERY_HOURS : input.read_every_hours) : null;
  if (!fetched && input.read_every_hours) {
    throw new InvalidError("read_every_hours: an access log without a `url` is read when it is uploaded; give its `url` to read it on a schedule.", [
      { field: "read_every_hours", message: "applies to a log with a url" },
    ]);
  }
  const [row] = await ctx.db
    .insert(trafficSources)
    .values({
      siteId: site.id,
      accountId: ctx.accountId,
      kind: input.kind,
      name: input.name ?? DEFAULT_NAMES[input.kind],
      settings,
      secret,
      readEveryHours,
      lastStatus: fetched ? "reading" : "never",
      nextReadAt: readEveryHours === null ? null : new Date(Date.now() + readEveryHours * 3_600_000),
    })
    .returning();
  if (fetched) await sendJob("traffic.read", { sourceId: row!.id, siteId: site.id });
  return toTrafficSource(row!);
}

/** The source, if it is the site's and the caller sees the site; anything else is not found. */
export async function getTrafficSourceRow(ctx: AccountContext, siteId: number, sourceId: number): Promise<TrafficSourceRow> {
  const site = await getSite(ctx, siteId);
  const [row] = await ctx.db
    .select()
    .from(trafficSources)
    .where(and(eq(trafficSources.id, sourceId), eq(trafficSources.siteId, site.id), eq(trafficSources.accountId, ctx.accountId)));
  if (!row) throw notFound("Traffic source");
  return row;
}

export async function getTrafficSource(ctx: AccountContext, siteId: number, sourceId: number): Promise<TrafficSourcePayload> {
  return toTrafficSource(await getTrafficSourceRow(ctx, siteId, sourceId));
}

export async function listTrafficSources(ctx: AccountContext, siteId: number): Promise<{ data: TrafficSourcePayload[] }> {
  const site = await getSite(ctx, siteId);
  const rows = await ctx.db
    .select()
    .from(trafficSources)
    .where(and(eq(trafficSources.siteId, site.id), eq(trafficSources.accountId, ctx.accountId)))
    .orderBy(desc(trafficSources.id));
  return { data: rows.map(toTrafficSource) };
}

/** Deletes the source and its visits: the popularity table no longer counts them. */
export async function deleteTrafficSource(ctx: AccountContext, siteId: number, sourceId: number): Promise<void> {
  const row = await getTrafficSourceRow(ctx, siteId, sourceId);
  await ctx.db.delete(trafficSources).where(eq(trafficSources.id, row.id));
}

/** Reads a source Preheat fetches now, whatever its schedule (202: GET the source for the outcome). An uploaded log is read by its upload. */
export async function readTrafficSourceNow(ctx: AccountContext, siteId: number, sourceId: number): Promise<TrafficSourcePayload> {
  const row = await getTrafficSourceRow(ctx, siteId, sourceId);
  if (!isFetched(row)) {
    throw new ConflictError("This access log has no url to fetch it from: upload it (POST …/upload) instead.", undefined, "upload_only_source");
  }
  const [reading] = await ctx.db.update(trafficSources).set({ lastStatus: "reading" }).where(eq(trafficSources.id, row.id)).returning();
  await sendJob("traffic.read", { sourceId: row.id, siteId: row.siteId });
  return toTrafficSource(reading!);
}

/**
 * Queues the reads that are due (the minute's cron tick), moving each due time a period on first,
 * so that two ticks never queue one source twice and a lost read is tried again a period later.
 */
export async function queueDueTrafficReads(db: Database, now = new Date()): Promise<number> {
  const due = rowsOf<{ id: number; site_id: number }>(
    await db.execute(sql`
      update ${trafficSources} set next_read_at = ${now.toISOString()}::timestamptz + make_interval(hours => read_every_hours), last_status = 'reading'
      where id in (select id from ${trafficSources} where ${lte(trafficSources.nextReadAt, now)} and read_every_hours is not null order by next_read_at limit 500 for update skip locked)
      returning id, site_id`),
  );
  await Promise.all(due.map((row) => sendJob("traffic.read", { sourceId: Number(row.id), siteId: Number(row.site_id) })));
  return due.length;
}
