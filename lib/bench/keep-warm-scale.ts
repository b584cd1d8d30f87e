import { sql } from "drizzle-orm";
import { boosts, sites } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { openDatabase } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { closeKeepWarmRuns, warmDueEntries } from "@/lib/runs/keep-warm";
import { startEmbeddedJobs } from "@/lib/worker/embedded";
import { percentile } from "./percentile";

/**
 * The keep-warm scheduler at scale (issue 57, item 2; ADR 0010): ENTRIES keep-warm entries across
 * 1,000 sites (100 organizations of 10; their robots.txt read, so that no call leaves), their due times spread evenly over SPREAD seconds from the
 * start, then the tick's passes, one a second as `keep_warm.tick` makes them (`warmDueEntries`:
 * claimDueEntries through the index on due_at, then each boost's calls added to its open keep-warm
 * run), for MEASURE seconds. The run.batch jobs they send are queued and not worked (a send-only
 * driver): what is measured is the scheduler, not the calls.
 *
 * Printed: entries due and claimed, the passes' time per due entry (mean, and the pass p50/p99), and
 * the lateness of each claim (the pass's end, when the calls are in their run, minus the entry's
 * due_at) p50/p99. On DATABASE_URL (the postgres-server case of `npm run bench -- keep-warm-scale`,
 * 1,000,000 entries) or an in-memory embedded database (100,000).
 *
 * BENCH_KEEP_WARM_ENTRIES, BENCH_KEEP_WARM_SPREAD (s, 3600: an hour's lifetime), BENCH_KEEP_WARM_MEASURE (s, 60).
 */
const SERVER = Boolean(process.env.DATABASE_URL);
const ENTRIES = Number(process.env.BENCH_KEEP_WARM_ENTRIES ?? (SERVER ? 1_000_000 : 100_000));
const SPREAD_S = Number(process.env.BENCH_KEEP_WARM_SPREAD ?? 3600);
const MEASURE_S = Number(process.env.BENCH_KEEP_WARM_MEASURE ?? 60);
const SITES = 1_000;
const SITES_PER_ACCOUNT = 10;
// A claimed entry whose call is never recorded (none is here) comes back after the floor: past the measure.
process.env.PREHEAT_KEEP_WARM_MIN_INTERVAL_SECONDS = "3600";

async function main() {
  const handle = await openDatabase(SERVER ? {} : { dataDir: "memory://" });
  const { db } = handle;
  const jobs = await startEmbeddedJobs(handle, { work: false });
  try {
    const seedStarted = performance.now();
    const boostIds: number[] = [];
    for (let a = 0; a < SITES / SITES_PER_ACCOUNT; a++) {
      const { user } = await findOrCreateUser(db, `scale-${a}@bench.test`);
      const made = await db
        .insert(sites)
        .values(
          Array.from({ length: SITES_PER_ACCOUNT }, (_, s) => ({
            accountId: user.accountId,
            domain: `s${a}-${s}.scale.test`,
            validationToken: `t${a}-${s}`,
            validated: true,
            robotsReadAt: new Date(),
          })),
        )
        .returning({ id: sites.id });
      const boosted = await db
        .insert(boosts)
        .values(made.map((site) => ({ siteId: site.id, name: "Kept warm", sourceType: "csv", sourceUrl: "http://scale.test/urls.csv", regions: ["fr"], keepWarm: true })))
        .returning({ id: boosts.id });
      boostIds.push(...boosted.map((b) => b.id));
    }
    // Past the seeding (7.5 s for 1,000,000 entries on this machine): no entry is due before the first pass.
    const start = Date.now() + (SERVER ? 30_000 : 5_000);
    // Entry i of every boost in turn, due at start + i/ENTRIES of the spread; its URL carries its due time (ms) for the lateness.
    await db.execute(sql`
      insert into keep_warm_entries (boost_id, site_id, account_id, region, call_key, call, priority, due_at, lifetime_seconds, fresh_until, last_warmed_at)
      select b.id, b.site_id, s.account_id, 'fr', 'u' || g.i, jsonb_build_object('url', 'http://' || s.domain || '/p/' || g.i || '?due=' || (${start}::bigint + (g.i::float8 * ${SPREAD_S * 1000} / ${ENTRIES})::bigint), 'user_agent', 'desktop', 'language', null),
        g.i / ${SITES}, to_timestamp((${start}::bigint + (g.i::float8 * ${SPREAD_S * 1000} / ${ENTRIES})::bigint) / 1000.0), ${SPREAD_S}, now(), now()
      from generate_series(0, ${ENTRIES - 1}) as g(i)
      join boosts b on b.id = (${sql.raw(`array[${boostIds.join(",")}]`)})[1 + g.i % ${SITES}]
      join sites s on s.id = b.site_id`);
    await db.execute(sql`analyze keep_warm_entries`);
    console.log(
      `${SERVER ? "PostgreSQL server" : "embedded (PGlite, in memory)"}: ${ENTRIES.toLocaleString("en")} entries across ${SITES} sites seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );

    const passMs: number[] = [];
    const late: number[] = [];
    let claimed = 0;
    let seenBatch = 0;
    const waited = start - Date.now();
    if (waited < 0) console.log(`  (seeding ended ${(-waited / 1000).toFixed(1)} s after the first due time: the entries due meanwhile start late)`);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, waited)));
    const until = Date.now() + MEASURE_S * 1000;
    while (Date.now() < until) {
      const passStarted = performance.now();
      await closeKeepWarmRuns(db);
      const added = await warmDueEntries(db);
      const ended = Date.now();
      passMs.push(performance.now() - passStarted);
      claimed += added;
      // Outside the timed pass: the due times of the calls it added, from the batches it wrote.
      const batches = rowsOf<{ id: number; url: string }>(
        (await db.execute(sql`select b.id, c->>'url' as url from run_batches b, jsonb_array_elements(b.calls) c where b.id > ${seenBatch}`)) as unknown,
      );
      for (const row of batches) {
        seenBatch = Math.max(seenBatch, Number(row.id));
        late.push(ended - Number(row.url.split("?due=")[1]));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (performance.now() - passStarted))));
    }
    const due = Math.round((ENTRIES * MEASURE_S) / SPREAD_S);
    const totalMs = passMs.reduce((a, b) => a + b, 0);
    console.log(
      `  ${passMs.length} passes over ${MEASURE_S} s: ${claimed.toLocaleString("en")} entries claimed and added to their runs (about ${due.toLocaleString("en")} due, ${(ENTRIES / SPREAD_S).toFixed(0)} a second)`,
    );
    console.log(
      `  scheduler time per due entry: ${((totalMs * 1000) / Math.max(1, claimed)).toFixed(0)} µs (a pass: p50 ${percentile(passMs, 50).toFixed(0)} ms, p99 ${percentile(passMs, 99).toFixed(0)} ms)`,
    );
    console.log(
      `  lateness (the pass's end − due_at): p50 ${(percentile(late, 50) / 1000).toFixed(2)} s, p99 ${(percentile(late, 99) / 1000).toFixed(2)} s, max ${(percentile(late, 100) / 1000).toFixed(2)} s`,
    );
  } finally {
    await jobs.stop();
    await handle.close();
  }
}

await main();
