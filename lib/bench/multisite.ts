import { spawnSync } from "node:child_process";
import { inArray } from "drizzle-orm";
import { runs, sites } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { queueWarm } from "@/lib/runs/warm-runs";
import { createSite } from "@/lib/sites/service";
import { startEmbeddedJobs } from "@/lib/worker/embedded";
import { createCaseDatabase, startWorkerProcesses } from "./postgres-workers";
import { benchCases, type Case, startDelayedOrigin, turnaroundLine } from "./tenant-cases";

/**
 * Many tenants at once (issue 11): N sites × M URLs behind one local origin that answers after a
 * fixed delay, each site with concurrency C, all queued together as on-demand warms (one account
 * per 10 sites) and worked by one embedded worker (pg-boss on an in-memory PGlite). The ideal is
 * N × C / delay calls per second; the ratio is the aggregate rate over the ideal. A run longer than
 * BENCH_MAX_SECONDS is measured on the calls made by then. The rate is taken over the calls' own
 * span at the origin (first request to last answer); the wall time, planning included, is printed too.
 *
 * BENCH_CASES: "sites×urls×concurrency×delayMs" list (default 200x100x4x200,1000x20x2x500).
 *
 * With DATABASE_URL (`npm run bench -- multisite-postgres` starts a throw-away server), the runs are
 * queued on that PostgreSQL server instead, in a database created for each case (and dropped after),
 * and worked by BENCH_WORKERS (default 2) worker processes started once they are all queued.
 */
const CASES = benchCases();
const MAX_SECONDS = Number(process.env.BENCH_MAX_SECONDS ?? 120);
const SERVER_URL = process.env.DATABASE_URL;
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const mib = (bytes: number) => Math.round(bytes / 1048576);

/** Where the runs are queued, and who works them once `start()` is called. */
type Setup = { handle: DatabaseHandle; start: () => Promise<void>; stop: () => Promise<void>; rss: () => string };

/** One embedded worker in this process, on an in-memory PGlite. */
async function embeddedSetup(): Promise<Setup> {
  const handle = await openDatabase({ dataDir: "memory://" });
  const idleRss = process.memoryUsage().rss;
  let peakRss = idleRss;
  let sampler: NodeJS.Timeout | undefined;
  let jobs: Awaited<ReturnType<typeof startEmbeddedJobs>> | undefined;
  return {
    handle,
    start: async () => {
      sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
      jobs = await startEmbeddedJobs(handle, { work: true });
    },
    stop: async () => {
      clearInterval(sampler);
      await jobs?.stop();
      await handle.close();
    },
    rss: () => `worker RSS ${mib(idleRss)} MiB idle, peak ${mib(peakRss)} MiB (+${mib(peakRss - idleRss)} MiB)`,
  };
}

/** Worker processes on the PostgreSQL server of SERVER_URL, in a new database; this process only queues (send-only driver). */
let caseNumber = 0;
async function postgresSetup(): Promise<Setup> {
  const database = await createCaseDatabase(SERVER_URL!, `bench_multisite_${process.pid}_${++caseNumber}`);
  const perProcess = Number(process.env.DATABASE_POOL_SIZE ?? 10) + 4; // postgres.js pool + pg-boss pool
  if ((WORKERS + 1) * perProcess > database.maxConnections) {
    console.error(`[bench] ${WORKERS} workers may open up to ${(WORKERS + 1) * perProcess} connections; the server allows ${database.maxConnections}`);
  }
  process.env.DATABASE_URL = database.url;
  const handle = await openDatabase();
  const sender = await startEmbeddedJobs(handle, { work: false });
  let workers: Awaited<ReturnType<typeof startWorkerProcesses>> | undefined;
  return {
    handle,
    start: async () => {
      await sender.stop(); // every job is inserted by now
      workers = await startWorkerProcesses(WORKERS, { ...process.env, DATABASE_URL: database.url });
    },
    stop: async () => {
      await workers?.stop();
      await handle.close();
      await database.drop();
    },
    rss: () => (workers ? `${workers.rss()} (all working the queue ${workers.readySeconds.toFixed(1)} s after their start)` : "no worker started"),
  };
}

async function measure(c: Case) {
  const origin = await startDelayedOrigin(c.delayMs);
  process.env.PREHEAT_CONNECT_TO = `:80:127.0.0.1:${origin.port}`;
  process.env.PREHEAT_ALLOW_PRIVATE_NETWORK = "true";
  process.env.PREHEAT_MONTHLY_CALL_QUOTA = "1000000000";
  process.env.PREHEAT_SITE_CONCURRENCY = String(c.concurrency);
  process.env.PREHEAT_SITE_MAX_CONCURRENCY = String(Math.max(16, c.concurrency));
  const setup = SERVER_URL ? await postgresSetup() : await embeddedSetup();
  const { db } = setup.handle;
  const ids: number[] = [];
  for (let s = 0; s < c.sites; s++) {
    const { user } = await findOrCreateUser(db, `tenant-${Math.floor(s / 10)}@bench.test`);
    const ctx = { db, accountId: user.accountId };
    const site = await createSite(ctx, { domain: `site-${s}.bench.test` });
    await db
      .update(sites)
      .set({ validated: true })
      .where(inArray(sites.id, [site.id]));
    const { run } = await queueWarm(ctx, site.id, { urls: Array.from({ length: c.urls }, (_, i) => `http://site-${s}.bench.test/p/${i}`), region: ["fr"] });
    ids.push(run.id);
  }
  const started = performance.now();
  await setup.start();
  const total = c.sites * c.urls;
  let statuses: string[] = [];
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    statuses = (await db.select({ status: runs.status }).from(runs).where(inArray(runs.id, ids))).map((r) => r.status);
    if (!statuses.some((s) => s === "pending" || s === "running") || (performance.now() - started) / 1000 > MAX_SECONDS) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const done = statuses.filter((s) => s === "done").length;
  const stats = await origin.stats();
  await setup.stop();
  origin.stop();
  // The rate over the calls' own span (first request to last answer at the origin): planning, which
  // comes before, is reported apart as the wall time.
  const rate = stats.served / (stats.spanMs / 1000);
  const ideal = (c.sites * c.concurrency) / (c.delayMs / 1000);
  const counts = [...new Set(statuses)].map((status) => `${statuses.filter((s) => s === status).length} ${status}`).join(", ");
  const cut = done < ids.length ? ` (stopped after ${seconds.toFixed(0)} s with ${done} of ${ids.length} runs done: ${counts})` : "";
  console.log(
    `${c.sites} sites × ${c.urls} URLs, concurrency ${c.concurrency}, origin delay ${c.delayMs} ms: ${stats.served.toLocaleString("en")} of ${total.toLocaleString("en")} calls, ${(stats.spanMs / 1000).toFixed(1)} s from first call to last answer, ${seconds.toFixed(1)} s wall time with planning${cut}`,
  );
  console.log(`  aggregate ${Math.round(rate).toLocaleString("en")} calls/s, ideal ${Math.round(ideal).toLocaleString("en")} calls/s (N × C / delay): ratio ${(rate / ideal).toFixed(2)}`);
  console.log(
    `  peak calls in flight ${stats.peak} (ideal ${c.sites * c.concurrency}), peak per site ${stats.peakPerSite} (limit ${c.concurrency}${stats.peakPerSite > c.concurrency ? ": EXCEEDED" : ""})`,
  );
  console.log(turnaroundLine(stats));
  console.log(`  ${setup.rss()}`);
}

async function main() {
  const workers = SERVER_URL ? `${WORKERS} worker processes (npm run worker) on a PostgreSQL server at ${new URL(SERVER_URL).host}` : "one embedded worker (pg-boss on in-memory PGlite)";
  if (!process.env.BENCH_CASE_PROCESS)
    console.log(
      `engine alone (every run queued before the ${SERVER_URL ? "workers start" : "worker starts, in this process"}, no HTTP server): ${(await import("node:os")).cpus().length} cores, Node ${process.version}; ${workers}, origin in its own process`,
    );
  if (CASES.length === 1) return measure(CASES[0]!);
  // Each case in a process of its own: the engine, its sites' gates and the HTTP pools are the
  // process's, and a case must not start with the previous one's (its origin is gone).
  for (const c of CASES) {
    const spec = `${c.sites}x${c.urls}x${c.concurrency}x${c.delayMs}`;
    const { status } = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!], { stdio: "inherit", env: { ...process.env, BENCH_CASES: spec, BENCH_CASE_PROCESS: "1" } });
    if (status !== 0) throw new Error(`case ${spec} failed (exit ${status})`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
