import { type SQL, sql } from "drizzle-orm";
import { keepWarmEntries } from "@/drizzle/schema";
import type { PlannedCall } from "@/lib/core/calls";
import type { Database } from "@/lib/db";
import { inIds, recordset } from "@/lib/db/recordset";
import { rowsOf } from "@/lib/db/rows";
import type { FreshnessReading } from "@/lib/warm/freshness";
import { type KeepWarmSettings, keepWarmSettings, nextDue } from "./next-due";

/** A recorded call of a keep-warm boost: the entry it keeps, and what its answer said. */
export type KeptCall = {
  boostId: number;
  siteId: number;
  accountId: number;
  region: string;
  /** The call's URL and variant: its identity within the boost and region. */
  callKey: string;
  call: PlannedCall;
  /** Its place in the boost's URL order, when the call comes from a run that follows that order; null keeps the entry's. */
  priority: number | null;
  reading: FreshnessReading | null;
  warmedAt: Date;
  settings: KeepWarmSettings;
};

const ENTRY_COLUMNS =
  "boost_id int, site_id int, account_id int, region text, call_key text, call jsonb, priority int, due_at timestamptz, reason text, lifetime_seconds int, stale_while_revalidate_seconds int, fresh_until timestamptz, last_warmed_at timestamptz";

/**
 * Writes each call's entry with its next due time (lib/freshness/next-due.ts): the recording of a
 * keep-warm boost's calls, in the recording's transaction. A call that got no answer (a timeout, a
 * worker that died) changes nothing of an entry that exists: its claim already set when it is tried
 * again. A call of a run that follows the boost's URL order also sets the entry's place in it.
 */
export async function keepEntries(tx: Database, calls: readonly KeptCall[]): Promise<void> {
  if (!calls.length) return;
  const rows = calls.map((kept) => {
    const due = nextDue(kept.reading, kept.settings, kept.warmedAt);
    return {
      answered: kept.reading !== null,
      ordered: kept.priority !== null,
      value: {
        boost_id: kept.boostId,
        site_id: kept.siteId,
        account_id: kept.accountId,
        region: kept.region,
        call_key: kept.callKey,
        call: kept.call,
        priority: kept.priority ?? 0,
        due_at: due.dueAt?.toISOString() ?? null,
        reason: due.reason,
        lifetime_seconds: kept.reading?.lifetimeSeconds ?? null,
        stale_while_revalidate_seconds: kept.reading?.staleWhileRevalidateSeconds ?? null,
        fresh_until: kept.reading?.freshUntil?.toISOString() ?? null,
        last_warmed_at: kept.warmedAt.toISOString(),
      },
    };
  });
  await upsert(
    tx,
    rows.filter((row) => !row.answered),
    sql`do nothing`,
  );
  const answered = sql`call = excluded.call, due_at = excluded.due_at, reason = excluded.reason, lifetime_seconds = excluded.lifetime_seconds,
      stale_while_revalidate_seconds = excluded.stale_while_revalidate_seconds, fresh_until = excluded.fresh_until, last_warmed_at = excluded.last_warmed_at`;
  // A late recording of an older call never moves an entry back.
  const newer = sql`where ${keepWarmEntries}.last_warmed_at is null or ${keepWarmEntries}.last_warmed_at <= excluded.last_warmed_at`;
  await upsert(
    tx,
    rows.filter((row) => row.answered && row.ordered),
    sql`do update set ${answered}, priority = excluded.priority ${newer}`,
  );
  await upsert(
    tx,
    rows.filter((row) => row.answered && !row.ordered),
    sql`do update set ${answered} ${newer}`,
  );
}

async function upsert(tx: Database, rows: { value: Record<string, unknown> }[], onConflict: SQL): Promise<void> {
  if (!rows.length) return;
  // One row per key: a recording may hold two calls of one entry (a run asked it twice), and an upsert takes each key once.
  const unique = [...new Map(rows.map(({ value }) => [`${value.boost_id}\u0000${value.region}\u0000${value.call_key}`, value])).values()];
  await tx.execute(sql`
    insert into ${keepWarmEntries} (boost_id, site_id, account_id, region, call_key, call, priority, due_at, reason, lifetime_seconds, stale_while_revalidate_seconds, fresh_until, last_warmed_at)
    select * from ${recordset(JSON.stringify(unique), ENTRY_COLUMNS)}
    on conflict (boost_id, region, call_key) ${onConflict}`);
}

/** The `call` column as a statement answers it: parsed by the PostgreSQL driver, as JSON text by the embedded one. */
function callOf(column: PlannedCall | string): PlannedCall {
  return typeof column === "string" ? (JSON.parse(column) as PlannedCall) : column;
}

/** An entry claimed for its re-warm. */
export type DueEntry = { boostId: number; siteId: number; accountId: number; region: string; callKey: string; call: PlannedCall; priority: number; dueAt: Date };

/**
 * Claims up to `limit` entries due by `now`, earliest first, skipping those another worker holds:
 * the index on `due_at` makes this cost what is due. Each claimed entry's due time moves to
 * `now + retrySeconds`, the time it is warmed again if its call is never recorded (a crash); the
 * recording of its call sets the exact one.
 */
export async function claimDueEntries(db: Database, now: Date, limit: number, retrySeconds: number): Promise<DueEntry[]> {
  const claimed = (await db.execute(sql`
    with due as (
      select boost_id, region, call_key, due_at from ${keepWarmEntries}
      where due_at is not null and due_at <= ${now.toISOString()}::timestamptz
      order by due_at
      limit ${limit}
      for update skip locked
    )
    update ${keepWarmEntries} as e set due_at = ${now.toISOString()}::timestamptz + make_interval(secs => ${retrySeconds})
    from due
    where e.boost_id = due.boost_id and e.region = due.region and e.call_key = due.call_key
    returning e.boost_id, e.site_id, e.account_id, e.region, e.call_key, e.call, e.priority, due.due_at`)) as unknown;
  return rowsOf<{ boost_id: number; site_id: number; account_id: number; region: string; call_key: string; call: PlannedCall | string; priority: number; due_at: string | Date }>(claimed).map(
    (row) => ({
      boostId: Number(row.boost_id),
      siteId: Number(row.site_id),
      accountId: Number(row.account_id),
      region: row.region,
      callKey: row.call_key,
      call: callOf(row.call),
      priority: Number(row.priority),
      dueAt: new Date(row.due_at),
    }),
  );
}

/** Forgets boosts' entries: their keep-warm was turned off, and their pages' lifetimes are learned again if it is turned on. */
export async function forgetEntries(db: Database, boostIds: readonly number[]): Promise<void> {
  if (!boostIds.length) return;
  await db.delete(keepWarmEntries).where(inIds(keepWarmEntries.boostId, boostIds));
}

/** Moves claimed entries that will not be warmed now (their boost paused, its budget or quota spent) to `until`, saying why. */
export async function postponeEntries(db: Database, entries: readonly DueEntry[], until: Date): Promise<void> {
  if (!entries.length) return;
  const keys = entries.map((e) => ({ boost_id: e.boostId, region: e.region, call_key: e.callKey }));
  await db.execute(sql`
    update ${keepWarmEntries} as e set due_at = ${until.toISOString()}::timestamptz
    from ${recordset(JSON.stringify(keys), "boost_id int, region text, call_key text")}
    where e.boost_id = v.boost_id and e.region = v.region and e.call_key = v.call_key`);
}

/**
 * Makes due at once the entries that waited while their boost could not warm (paused, or its
 * organization suspended: postponed an hour at a time): their pages went cold meanwhile, and the
 * owner's go-ahead should not wait for the next hourly look. An entry whose page is still fresh keeps
 * its due time.
 */
export async function wakeWaitingEntries(db: Database, of: { boostId: number } | { accountId: number }, now = new Date()): Promise<void> {
  const scope = "boostId" in of ? sql`boost_id = ${of.boostId}` : sql`account_id = ${of.accountId}`;
  const at = sql`${now.toISOString()}::timestamptz`;
  await db.execute(sql`
    update ${keepWarmEntries} set due_at = ${at}
    where ${scope} and reason is null and due_at > ${at} and (fresh_until is null or fresh_until <= ${at})`);
}

const MONTH_SECONDS = 30 * 86_400;

/**
 * What keep-warm does for a boost: its entries, those chased and those not (by reason), the next
 * re-warm, and the calls a month of keeping the chased ones warm would take from the lifetimes
 * learned so far (one call per lifetime, never more often than the floor), with how many of them a
 * monthly budget leaves cold (the last in the boost's URL order).
 */
export async function keepWarmFigures(db: Database, boostId: number, budget: number | null) {
  const { floorSeconds } = keepWarmSettings(0);
  const [row] = rowsOf<{ entries: number; chased: number; next_due_at: string | Date | null; projected: number | null; left_cold: number }>(
    (await db.execute(sql`
      with chased as (
        select priority, ${MONTH_SECONDS}::float8 / greatest(lifetime_seconds, ${floorSeconds}) as monthly
        from ${keepWarmEntries} where boost_id = ${boostId} and reason is null and lifetime_seconds is not null
      ), running as (
        select monthly, sum(monthly) over (order by priority rows unbounded preceding) as so_far from chased
      )
      select
        (select count(*) from ${keepWarmEntries} where boost_id = ${boostId})::int as entries,
        (select count(*) from chased)::int as chased,
        (select min(due_at) from ${keepWarmEntries} where boost_id = ${boostId} and reason is null) as next_due_at,
        (select round(sum(monthly)) from running)::int as projected,
        (select count(*) from running where ${budget}::int is not null and so_far > ${budget}::int)::int as left_cold`)) as unknown,
  );
  return {
    entries: Number(row?.entries ?? 0),
    chased: Number(row?.chased ?? 0),
    nextDueAt: row?.next_due_at ? new Date(row.next_due_at) : null,
    projectedMonthlyCalls: Number(row?.projected ?? 0),
    leftColdByBudget: Number(row?.left_cold ?? 0),
  };
}

/** The boost's entries that are not chased, with why, in the boost's URL order: what the boost page lists. */
export async function notChasedEntries(db: Database, boostId: number, page: { limit: number; offset: number }) {
  const where = sql`boost_id = ${boostId} and reason is not null`;
  const [rows, total] = await Promise.all([
    db.execute(sql`select region, call, reason, lifetime_seconds from ${keepWarmEntries} where ${where} order by priority, call_key, region limit ${page.limit} offset ${page.offset}`),
    db.execute(sql`select count(*)::int as n from ${keepWarmEntries} where ${where}`),
  ]);
  return {
    data: rowsOf<{ region: string; call: PlannedCall | string; reason: string; lifetime_seconds: number | null }>(rows as unknown).map((row) => {
      const call = callOf(row.call);
      return {
        url: call.url,
        region: row.region,
        user_agent: call.user_agent,
        language: call.language,
        reason: row.reason,
        lifetime_seconds: row.lifetime_seconds === null ? null : Number(row.lifetime_seconds),
      };
    }),
    total: Number(rowsOf<{ n: number }>(total as unknown)[0]?.n ?? 0),
  };
}
