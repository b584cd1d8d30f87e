import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon, { type Request as LoadRequest, type Result as LoadResult } from "autocannon";
import { sql } from "drizzle-orm";
import { boosts, runBatches, runs, sites } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createApiKey } from "@/lib/auth/api-keys";
import { SCOPES } from "@/lib/auth/scopes";
import { type Database, openDatabase } from "@/lib/db";
import { freePort } from "@/lib/testing/ports";
import { startProductionServer } from "@/lib/testing/production-server";
import { recordset } from "@/lib/db/recordset";
import { summariseRuns } from "@/lib/runs/summary";
import { newVerificationSecret } from "@/lib/sites/verification";
import { percentile } from "./percentile";
import { createCaseDatabase } from "./postgres-workers";

/**
 * API capacity (issue 15): one production server process (`next start` of the build), on the
 * embedded database or, with DATABASE_URL (`npm run bench -- api` starts a throw-away server), on a
 * PostgreSQL server, with its worker off (PREHEAT_EMBEDDED_WORKER=false: warms are queued, not
 * worked, so that only the API is measured). ACCOUNTS accounts with a key each, RUNS_PER_ACCOUNT
 * finished boost runs each (two batches of figures per run), and one validated site per warm request.
 *
 * Each operation is driven by autocannon at fixed rates (BENCH_API_RATES, requests/s over
 * BENCH_API_CONNECTIONS connections, BENCH_API_SECONDS each), then as fast as it answers
 * (saturation: the sustained rate). Requests rotate over the accounts' keys, runs and sites.
 * Printed per rate: the rate achieved, p50 and p99 latency, errors (timeouts at 10 s included) and
 * answers other than 2xx. autocannon runs in this process, on the same 2 cores as the server. The
 * reference, measured first in the same run: GET /healthz at saturation (Next.js's own cost of an
 * answer on this machine, no key and no database); each sustained rate is printed as a ratio of it.
 * Every sustained rate, the reference's included, is the second of two saturated runs in a row: V8
 * optimises a path only under load, and the first run is its warm-up.
 * BENCH_API_OPERATIONS: which of list, get, warm (all by default).
 */
const RATES = (process.env.BENCH_API_RATES ?? "250,500,1000,1500").split(",").map(Number);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 100);
const SATURATION_CONNECTIONS = 200;
/** Requests a second of each operation's warm-up (and the reference's), for BENCH_API_SECONDS. */
const WARM_UP_RATE = 100;
const OPERATIONS = (process.env.BENCH_API_OPERATIONS ?? "list,get,warm").split(",");
const ACCOUNTS = 10;
const RUNS_PER_STATEMENT = 2_000;
/** BENCH_API_RUNS_PER_ACCOUNT: each organization's history of boost runs (200 by default; a year of hourly runs of two boosts is 17,520). */
const RUNS_PER_ACCOUNT = Number(process.env.BENCH_API_RUNS_PER_ACCOUNT ?? 200);
const SERVER_URL = process.env.DATABASE_URL;
/** BENCH_API_PROFILE=<dir>: the server's V8 CPU profiles (.cpuprofile, for Chrome's DevTools or speedscope) are written there when it stops. */
const PROFILE_DIR = process.env.BENCH_API_PROFILE;

type Seeded = { keys: string[]; runIds: number[][]; warmSiteIds: number[][] };

/** Enough sites that no warm request meets a pending warm of its site (one warm per site at a time). */
function warmSitesNeeded(): number {
  const fixed = [WARM_UP_RATE, ...RATES].reduce((sum, rate) => sum + rate * SECONDS, 0);
  // Two saturated runs (sustained), at most 3,000 warms a second each.
  return Math.ceil((fixed + 2 * 3000 * SECONDS) / ACCOUNTS) + 100;
}

async function seed(db: Database): Promise<Seeded> {
  const seeded: Seeded = { keys: [], runIds: [], warmSiteIds: [] };
  const sitesPerAccount = warmSitesNeeded();
  const finished = new Date(Date.now() - 3_600_000);
  for (let a = 0; a < ACCOUNTS; a++) {
    const { user } = await findOrCreateUser(db, `integrator-${a}@bench.test`);
    seeded.keys.push((await createApiKey(db, { accountId: user.accountId, name: "bench", scopes: [...SCOPES] })).key);
    const [listed] = await db
      .insert(sites)
      .values({ accountId: user.accountId, domain: `shop-${a}.bench.test`, validationToken: "bench", validated: true, verificationSecret: newVerificationSecret() })
      .returning();
    const boostRows = await db
      .insert(boosts)
      .values(Array.from({ length: 5 }, (_, b) => ({ siteId: listed!.id, name: `Boost ${b}`, sourceType: "csv", regions: ["fr", "de"], status: "active" })))
      .returning({ id: boosts.id });
    const runIds: number[] = [];
    // In chunks: a statement carries at most 65,535 parameters.
    for (let from = 0; from < RUNS_PER_ACCOUNT; from += RUNS_PER_STATEMENT) {
      const runRows = await db
        .insert(runs)
        .values(
          Array.from({ length: Math.min(RUNS_PER_STATEMENT, RUNS_PER_ACCOUNT - from) }, (_, r) => ({
            kind: "boost" as const,
            siteId: listed!.id,
            accountId: user.accountId,
            boostId: boostRows[r % boostRows.length]!.id,
            status: "done",
            regions: ["fr", "de"],
            plannedCalls: 400,
            startedAt: finished,
            finishedAt: finished,
          })),
        )
        .returning({ id: runs.id });
      runIds.push(...runRows.map((r) => r.id));
      await db.insert(runBatches).values(
        runRows.flatMap(({ id }) =>
          ["fr", "de"].map((region, seq) => ({
            runId: id,
            seq,
            region,
            calls: [],
            status: "done",
            totalCalls: 200,
            successfulCalls: 198,
            failedCalls: 2,
            cacheHits: 150,
            responseTimeMsTotal: 40_000,
            hitMsTotal: 6_000,
            missMsTotal: 30_000,
            pops: { CDG: 120, FRA: 80 },
            notCached: { miss: 40, bypass: 8 },
          })),
        ),
      );
      // What finishRun stores when a run ends: its final figures.
      const summaries = await summariseRuns(
        db,
        runRows.map((r) => r.id),
      );
      const values = JSON.stringify([...summaries].map(([id, summary]) => ({ id, summary })));
      await db.execute(sql`update ${runs} as r set summary = v.summary from ${recordset(values, "id int, summary jsonb")} where r.id = v.id`);
    }
    seeded.runIds.push(runIds);
    const warmSites: number[] = [];
    for (let from = 0; from < sitesPerAccount; from += 2000) {
      const rows = await db
        .insert(sites)
        .values(
          Array.from({ length: Math.min(2000, sitesPerAccount - from) }, (_, s) => ({
            accountId: user.accountId,
            domain: `w${from + s}.shop-${a}.bench.test`,
            validationToken: "bench",
            // As a site registered through the API has it: without one, its first read writes one.
            verificationSecret: newVerificationSecret(),
            validated: true,
          })),
        )
        .returning({ id: sites.id });
      warmSites.push(...rows.map((r) => r.id));
    }
    seeded.warmSiteIds.push(warmSites);
  }
  return seeded;
}

type Operation = { name: string; method: "GET" | "POST"; request: (n: number) => { path: string; key?: string; body?: string } };

function operations(seeded: Seeded): Operation[] {
  const account = (n: number) => n % ACCOUNTS;
  const warmed = new Array<number>(ACCOUNTS).fill(0);
  const all: Operation[] = [
    { name: "list", method: "GET", request: (n) => ({ path: "/v1/runs", key: seeded.keys[account(n)]! }) },
    {
      name: "get",
      method: "GET",
      request: (n) => {
        const ids = seeded.runIds[account(n)]!;
        return { path: `/v1/runs/${ids[Math.floor(n / ACCOUNTS) % ids.length]}`, key: seeded.keys[account(n)]! };
      },
    },
    {
      name: "warm",
      method: "POST",
      request: (n) => {
        const a = account(n);
        const siteIds = seeded.warmSiteIds[a]!;
        const index = warmed[a]! % siteIds.length;
        warmed[a] = index + 1;
        const body = JSON.stringify({ urls: [`https://w${index}.shop-${a}.bench.test/`, `https://w${index}.shop-${a}.bench.test/cart`] });
        return { path: `/v1/sites/${siteIds[index]}/warm`, key: seeded.keys[a]!, body };
      },
    },
  ];
  return all.filter((op) => OPERATIONS.includes(op.name));
}

const HEALTHZ: Operation = { name: "healthz", method: "GET", request: () => ({ path: "/healthz" }) };

const LABELS: Record<string, string> = { list: "GET /v1/runs", get: "GET /v1/runs/{id}", warm: "POST /v1/sites/{id}/warm" };

type Measure = { rate: number; p50: number; p99: number; errors: number; timeouts: number; non2xx: number; total: number };

function requestsOf(op: Operation, counter: { n: number }): (LoadRequest & { setupRequest: (request: LoadRequest) => LoadRequest })[] {
  return [
    {
      method: op.method,
      setupRequest: (request) => {
        const { path, key, body } = op.request(counter.n++);
        return { ...request, path, body, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { "content-type": "application/json" } : {}) } };
      },
    },
  ];
}

/** As fast as the server answers, over SATURATION_CONNECTIONS connections: the sustained rate. */
async function saturate(baseUrl: string, op: Operation, counter: { n: number }): Promise<Measure> {
  const result = await autocannon({ url: baseUrl, connections: SATURATION_CONNECTIONS, duration: SECONDS, timeout: 10, requests: requestsOf(op, counter) });
  return {
    rate: result.requests.total / SECONDS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

/**
 * `rate` requests a second, arriving steadily. autocannon's own overallRate lets every connection
 * send its share of a second at once when the second begins, so all of them burst together and the
 * latency measured is the time to drain that burst. Here each of CONNECTIONS connections is an
 * autocannon of its own, with its share of the rate, and they start 1000 / CONNECTIONS ms apart:
 * a connection's second begins every few milliseconds.
 */
async function steady(baseUrl: string, op: Operation, counter: { n: number }, rate: number): Promise<Measure> {
  const streams = Math.min(CONNECTIONS, rate);
  const latencies: number[] = [];
  const runs = Array.from({ length: streams }, (_, i) => {
    const share = Math.floor(rate / streams) + (i < rate % streams ? 1 : 0);
    return new Promise<LoadResult>((resolve, reject) => {
      setTimeout(
        () => {
          const instance = autocannon({ url: baseUrl, connections: 1, duration: SECONDS, overallRate: share, timeout: 10, requests: requestsOf(op, counter) }, (error, result) =>
            error ? reject(error) : resolve(result),
          );
          instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
        },
        (i * 1000) / streams,
      );
    });
  });
  const results = await Promise.all(runs);
  const sum = (pick: (r: LoadResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const total = sum((r) => r.requests.total);
  return {
    rate: total / SECONDS,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
    total,
  };
}

async function drive(baseUrl: string, op: Operation, counter: { n: number }, rate: number | undefined): Promise<Measure> {
  return rate ? steady(baseUrl, op, counter, rate) : saturate(baseUrl, op, counter);
}

/** The rate `op` sustains: measured on a second saturated run, the first one's warming V8's optimised code under load. */
async function sustained(baseUrl: string, op: Operation, counter: { n: number }): Promise<Measure> {
  await drive(baseUrl, op, counter, undefined);
  return drive(baseUrl, op, counter, undefined);
}

function line(label: string, m: Measure): string {
  const failures = m.errors + m.non2xx;
  const failed = failures ? `, ${failures} failed (${m.timeouts} timeouts, ${m.non2xx} non-2xx) = ${((100 * failures) / Math.max(1, m.total + m.errors)).toFixed(2)} %` : ", no error";
  return `  ${label.padEnd(22)} achieved ${Math.round(m.rate).toLocaleString("en").padStart(5)} req/s, p50 ${String(m.p50).padStart(4)} ms, p99 ${String(m.p99).padStart(5)} ms${failed}`;
}

async function main() {
  const database = SERVER_URL ? await createCaseDatabase(SERVER_URL, `bench_api_${process.pid}`) : undefined;
  const dataDir = database ? undefined : mkdtempSync(path.join(os.tmpdir(), "preheat-bench-api-"));
  if (database) process.env.DATABASE_URL = database.url;
  const handle = await openDatabase({ dataDir });
  const seedStarted = performance.now();
  const seeded = await seed(handle.db);
  // What autovacuum (a PostgreSQL server) or maintainEmbedded (the embedded one) would have done by then:
  // the statistics gathered, the seeded summaries' dead rows reclaimed, the pages marked all-visible.
  await handle.db.execute(sql`vacuum analyze`);
  await handle.close();
  const where = database ? `a PostgreSQL server at ${new URL(SERVER_URL!).host}` : "the embedded database (PGlite)";
  console.log(`machine: ${os.cpus().length} cores, Node ${process.version}; one server process on ${where}, worker off`);
  console.log(
    `seeded ${ACCOUNTS} accounts × (1 key, ${RUNS_PER_ACCOUNT} boost runs, ${seeded.warmSiteIds[0]!.length.toLocaleString("en")} sites to warm) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s; ${SECONDS} s per rate, ${CONNECTIONS} connections (${SATURATION_CONNECTIONS} at saturation)`,
  );
  const server = await startProductionServer(
    await freePort(),
    {
      ...(database ? { DATABASE_URL: database.url } : { PREHEAT_DATA_DIR: dataDir! }),
      PREHEAT_EMBEDDED_WORKER: "false",
      PREHEAT_RATE_LIMIT_PER_MINUTE: "1000000000",
      PREHEAT_MONTHLY_CALL_QUOTA: "1000000000",
    },
    { nodeArgs: PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(PROFILE_DIR)}`] : [] },
  );
  try {
    // The reference: the same server's cheapest answer (no key, no database), as fast as it goes, warmed
    // up as each operation is. Measured cold it read a quarter lower (its code is optimised only under
    // load), which made every ratio look a third better than it was (docs/benchmarks.md).
    await drive(server.baseUrl, HEALTHZ, { n: 0 }, WARM_UP_RATE);
    const reference = await sustained(server.baseUrl, HEALTHZ, { n: 0 });
    console.log(line("GET /healthz, saturated", reference).replace(/^ {2}/, ""));
    for (const op of operations(seeded)) {
      const counter = { n: 0 };
      console.log(`${LABELS[op.name]}:`);
      await drive(server.baseUrl, op, counter, WARM_UP_RATE); // warm-up: compiled routes, pools, caches
      for (const rate of RATES) console.log(line(`at ${rate.toLocaleString("en")} req/s`, await drive(server.baseUrl, op, counter, rate)));
      const rate = await sustained(server.baseUrl, op, counter);
      console.log(`${line("saturated (sustained)", rate)}; ${(rate.rate / reference.rate).toFixed(2)} × GET /healthz`);
    }
  } finally {
    await server.stop();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
