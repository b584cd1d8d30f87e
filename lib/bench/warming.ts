import { type ChildProcess, execFileSync, fork, spawnSync } from "node:child_process";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { runs, sites } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import type { Variations } from "@/lib/core/variations";
import { openDatabase } from "@/lib/db";
import { startEmbeddedJobs } from "@/lib/worker/embedded";
import type { RegionCode } from "@/lib/core/regions";
import { getRun } from "@/lib/runs/service";
import { defaultSiteConcurrency } from "@/lib/sites/pace";
import { createSite } from "@/lib/sites/service";
import { queueWarm } from "@/lib/runs/warm-runs";
import { USER_AGENTS } from "@/lib/warm/user-agents";
import type { LoopRate } from "./bare-dispatch";
import { measureCallLayers } from "./call-layers";

/**
 * Warming throughput of one worker against a local origin, next to a plain HTTP load generator
 * (wrk, or autocannon when wrk is absent) on the same origin at the same concurrency, and the
 * worker's peak memory as a run grows (docs/benchmarks.md).
 *
 * Each run is an on-demand warm queued with queueWarm and worked by the embedded job driver
 * (pg-boss on an in-memory PGlite), as in `npm run worker`: planning into run_batches,
 * warmNextBatch, the run's finish, statistics in the database. Each size runs in a fresh process,
 * so that its peak memory is its own. All traffic goes to 127.0.0.1.
 *
 * With DATABASE_URL (`npm run bench -- warming-postgres`), the runs are on that PostgreSQL server
 * instead, and the CPU a call is the worker's alone.
 *
 * BENCH_SIZES (calls, default 10000,100000,1000000), BENCH_LOADGEN_SECONDS (default 10),
 * BENCH_LOADGEN=autocannon to skip wrk, PREHEAT_SITE_CONCURRENCY (default 4).
 */

const HOST = "bench.test";
const REGIONS: RegionCode[] = ["fr", "us", "eu", "as", "de", "es", "gb"];
const AGENTS = ["mobile", "desktop", "bot", "ai_crawler"] as const;
const LANGUAGES = ["fr-FR", "en-US", "en-GB", "de-DE", "es-ES", "it-IT", "nl-NL", "pt-BR", "ja-JP", "pl-PL"];
const MAX_URLS = 5000;

type SizeResult = {
  calls: number;
  urls: number;
  languages: number;
  planningSeconds: number;
  warmingSeconds: number;
  rate: number;
  peakRss: number;
  peakHeap: number;
  warmPeakRss: number;
  warmPeakHeap: number;
  /** Largest heap left after a full GC (one every 5 s while warming, and at its end): what the run keeps alive. */
  retainedHeap: number;
  baselineRss: number;
  /** The process's CPU (all its threads) from the run's planning done to its end, a call (µs). */
  cpuMicrosPerCall: number;
  summary: { total_calls: number; successful_calls: number; failed_calls: number; cache_hits: number; pops: Record<string, number> };
  status: string;
  database: "postgres" | "embedded";
};

const databaseName = (kind: SizeResult["database"]) => (kind === "postgres" ? "PostgreSQL" : "the embedded database");

/** URLs × 4 user agents × languages × 7 regions ≥ calls, with at most 5,000 URLs (a warm's limit). */
function shape(calls: number) {
  for (let languages = 1; languages <= LANGUAGES.length; languages++) {
    const perUrl = REGIONS.length * AGENTS.length * languages;
    const urls = Math.ceil(calls / perUrl);
    if (urls <= MAX_URLS) return { urls, languages, calls: urls * perUrl };
  }
  throw new Error(`${calls} calls need more than ${MAX_URLS} URLs × ${LANGUAGES.length} languages`);
}

const mib = (bytes: number) => bytes / 1024 / 1024;

/**
 * Child: one run of about `size` calls, on a fresh in-memory database, or on DATABASE_URL's server
 * (`npm run bench -- warming-postgres`: the database's work in processes of its own).
 */
async function measureSize(size: number, port: number): Promise<SizeResult> {
  process.env.PREHEAT_CONNECT_TO = `${HOST}:80:127.0.0.1:${port}`;
  process.env.PREHEAT_ALLOW_PRIVATE_NETWORK = "true";
  process.env.PREHEAT_MONTHLY_CALL_QUOTA = "1000000000";
  const peaks = { rss: 0, heap: 0, warmRss: 0, warmHeap: 0 };
  let warming = false;
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peaks.rss = Math.max(peaks.rss, rss);
    peaks.heap = Math.max(peaks.heap, heapUsed);
    if (warming) {
      peaks.warmRss = Math.max(peaks.warmRss, rss);
      peaks.warmHeap = Math.max(peaks.warmHeap, heapUsed);
    }
  };
  const sampler = setInterval(sample, 50);
  const gc = (globalThis as { gc?: () => void }).gc;
  let retained = 0;
  const collect = () => {
    if (!gc || !warming) return;
    gc();
    retained = Math.max(retained, process.memoryUsage().heapUsed);
  };
  const collector = setInterval(collect, 5000);
  const handle = await openDatabase({ dataDir: "memory://" });
  const jobs = await startEmbeddedJobs(handle, { work: true });
  const { user } = await findOrCreateUser(handle.db, "bench@example.com");
  const ctx = { db: handle.db, accountId: user.accountId };
  // On a server, each size's process finds the site the one before it created.
  const [existing] = await handle.db
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.accountId, ctx.accountId), eq(sites.domain, HOST)));
  const site = existing ?? (await createSite(ctx, { domain: HOST }));
  await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
  const { urls, languages, calls } = shape(size);
  const variations: Variations = { user_agents: [...AGENTS], languages: LANGUAGES.slice(0, languages) };
  const baselineRss = process.memoryUsage().rss;
  const queued = performance.now();
  const { run } = await queueWarm(ctx, site.id, {
    urls: Array.from({ length: urls }, (_, i) => `http://${HOST}/products/category-${i % 97}/item-${i}?ref=bench`),
    region: REGIONS,
    variations,
  });
  let planned = 0;
  let cpuAtPlanned = process.cpuUsage();
  for (;;) {
    const [row] = await handle.db.select({ status: runs.status }).from(runs).where(eq(runs.id, run.id));
    if (row!.status !== "pending" && !planned) {
      planned = performance.now();
      cpuAtPlanned = process.cpuUsage();
      warming = true;
    }
    if (["done", "failed", "paused"].includes(row!.status)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ended = performance.now();
  const warmingCpu = process.cpuUsage(cpuAtPlanned);
  sample();
  collect();
  warming = false;
  clearInterval(sampler);
  clearInterval(collector);
  const [row] = await handle.db.select({ startedAt: runs.startedAt, finishedAt: runs.finishedAt }).from(runs).where(eq(runs.id, run.id));
  const result = await getRun(ctx, run.id);
  await jobs.stop();
  await handle.close();
  // The run's own clock (planned → last batch recorded), which the 100 ms poll does not blur.
  const warmingSeconds = (row!.finishedAt!.getTime() - row!.startedAt!.getTime()) / 1000 || (ended - planned) / 1000;
  return {
    calls,
    urls,
    languages,
    planningSeconds: (planned - queued) / 1000,
    warmingSeconds,
    rate: result.summary.total_calls / warmingSeconds,
    peakRss: peaks.rss,
    peakHeap: peaks.heap,
    warmPeakRss: peaks.warmRss,
    warmPeakHeap: peaks.warmHeap,
    retainedHeap: retained,
    baselineRss,
    cpuMicrosPerCall: (warmingCpu.user + warmingCpu.system) / calls,
    summary: result.summary,
    status: result.status,
    database: handle.kind,
  };
}

function startOrigin(): Promise<{ child: ChildProcess; port: number; served: () => Promise<number> }> {
  const child = fork(path.join(import.meta.dirname, "origin.ts"), { execArgv: ["--import", "tsx"], stdio: "inherit" });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("message", (message: { port: number }) => {
      const served = () =>
        new Promise<number>((done) => {
          child.once("message", (m: { served: number }) => done(m.served));
          child.send({ type: "count" });
        });
      resolve({ child, port: message.port, served });
    });
  });
}

function wrkPath(): string | undefined {
  if (process.env.BENCH_LOADGEN === "autocannon") return undefined;
  try {
    return execFileSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The headers Preheat sends, so that the load generator's requests cost the origin the same. */
const loadHeaders = {
  "user-agent": USER_AGENTS.desktop,
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "fr-FR,fr;q=0.9",
  pragma: "akamai-x-cache-on",
};

const BENCH_PATH = "/products/category-1/item-1?ref=bench";

async function loadGenerator(port: number, connections: number, seconds: number): Promise<{ tool: string; rate: number }> {
  const url = `http://127.0.0.1:${port}${BENCH_PATH}`;
  const wrk = wrkPath();
  if (wrk) {
    const args = ["-t1", `-c${connections}`, `-d${seconds}s`, ...Object.entries(loadHeaders).flatMap(([k, v]) => ["-H", `${k}: ${v}`]), url];
    const out = spawnSync(wrk, args, { encoding: "utf8" });
    const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(out.stdout)?.[1]);
    if (!rate) throw new Error(`wrk gave no rate:\n${out.stdout}${out.stderr}`);
    return { tool: `wrk -t1 -c${connections}`, rate };
  }
  console.log("wrk is not installed (Debian: apt-get update && apt-get install -y wrk): measuring with autocannon instead.");
  const { default: autocannon } = await import("autocannon");
  const result = await autocannon({ url, connections, duration: seconds, headers: loadHeaders });
  return { tool: `autocannon -c ${connections}`, rate: result.requests.average };
}

function runChild(size: number, port: number): Promise<SizeResult> {
  const child = fork(import.meta.filename, ["--size", String(size), "--port", String(port)], {
    execArgv: ["--expose-gc", "--import", "tsx", ...(process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [])],
    stdio: "inherit",
  });
  return new Promise((resolve, reject) => {
    child.once("message", (message: SizeResult | { error: string }) => ("error" in message ? reject(new Error(message.error)) : resolve(message)));
    child.once("exit", (code) => code && reject(new Error(`the ${size}-call run exited with ${code}`)));
  });
}

async function main() {
  const sizes = (process.env.BENCH_SIZES ?? "10000,100000,1000000")
    .split(",")
    .map(Number)
    .filter((n) => n > 0);
  const seconds = Number(process.env.BENCH_LOADGEN_SECONDS) || 10;
  const concurrency = defaultSiteConcurrency();
  const origin = await startOrigin();
  try {
    console.log(
      `machine: ${(await import("node:os")).cpus().length} cores, Node ${process.version}; origin: node:http in its own process, 4 KiB pages; concurrency ${concurrency} (PREHEAT_SITE_CONCURRENCY)`,
    );
    const load = await loadGenerator(origin.port, concurrency, seconds);
    console.log(`${load.tool}: ${load.rate.toFixed(0)} requests/s over ${seconds} s`);
    process.env.PREHEAT_CONNECT_TO = `${HOST}:80:127.0.0.1:${origin.port}`;
    process.env.PREHEAT_ALLOW_PRIVATE_NETWORK = "true";
    const layers = await measureCallLayers(`http://127.0.0.1:${origin.port}`, `http://${HOST}${BENCH_PATH}`, loadHeaders, concurrency, seconds);
    const { rate: bare, cpuMicrosPerRequest: bareCpu } = layers.bare;
    const layerLine = (name: string, layer: LoopRate) => `${name}: ${layer.rate.toFixed(0)} requests/s, ${layer.cpuMicrosPerRequest.toFixed(1)} µs of CPU a request`;
    console.log(`each alone, ${concurrency} connections, alternated over ${seconds} s (medians of 3 rounds):`);
    console.log(`  ${layerLine("bare undici dispatch", layers.bare)}`);
    console.log(`  ${layerLine("the guarded fetch layer (lib/fetch)", layers.fetch)}`);
    console.log(`  ${layerLine("a warming call (lib/warm/call.ts: its headers, the answer's cache status and challenge check)", layers.call)}`);
    const results: SizeResult[] = [];
    for (const size of sizes) {
      const before = await origin.served();
      const result = await runChild(size, origin.port);
      const received = (await origin.served()) - before;
      results.push(result);
      const check = result.summary.total_calls === received && result.summary.successful_calls === result.calls ? "totals = origin's count" : `MISMATCH: origin received ${received}`;
      console.log(
        `preheat ${result.calls} calls (${result.urls} URLs × 4 UAs × ${result.languages} languages × 7 regions) on ${databaseName(result.database)}: ${result.status}, ` +
          `planned in ${result.planningSeconds.toFixed(1)} s, warmed in ${result.warmingSeconds.toFixed(1)} s = ${result.rate.toFixed(0)} calls/s, ${result.cpuMicrosPerCall.toFixed(1)} µs of CPU a call; ` +
          `peak RSS ${mib(result.peakRss).toFixed(0)} MiB (warming ${mib(result.warmPeakRss).toFixed(0)}), peak heap ${mib(result.peakHeap).toFixed(0)} MiB (warming ${mib(result.warmPeakHeap).toFixed(0)}, retained after GC ${mib(result.retainedHeap).toFixed(0)}); ` +
          `cache hits ${result.summary.cache_hits}, PoPs ${JSON.stringify(result.summary.pops)}; ${check}`,
      );
    }
    console.log("\n| calls | planning s | warming s | calls/s | peak RSS MiB (warming) | peak heap MiB (warming) | retained heap MiB |\n|---:|---:|---:|---:|---:|---:|---:|");
    for (const r of results) {
      console.log(
        `| ${r.calls} | ${r.planningSeconds.toFixed(1)} | ${r.warmingSeconds.toFixed(1)} | ${r.rate.toFixed(0)} | ${mib(r.peakRss).toFixed(0)} (${mib(r.warmPeakRss).toFixed(0)}) | ${mib(r.peakHeap).toFixed(0)} (${mib(r.warmPeakHeap).toFixed(0)}) | ${mib(r.retainedHeap).toFixed(0)} |`,
      );
    }
    const largest = results.at(-1)!;
    console.log(`\n${load.tool}: ${load.rate.toFixed(0)} req/s; preheat (${largest.calls} calls): ${largest.rate.toFixed(0)} calls/s`);
    console.log(`ratio: ${(largest.rate / load.rate).toFixed(2)} of ${load.tool}; ${(largest.rate / bare).toFixed(2)} of bare undici dispatch (${bare.toFixed(0)} req/s)`);
    // At four connections both loops wait on the origin part of the time: the CPU a call is what a busier worker pays.
    console.log(`CPU a call: preheat ${largest.cpuMicrosPerCall.toFixed(1)} µs, bare undici dispatch ${bareCpu.toFixed(1)} µs (${(largest.cpuMicrosPerCall / bareCpu).toFixed(1)} ×)`);
    console.log(
      `CPU a call, layer upon layer: undici ${bareCpu.toFixed(1)} µs, with the guarded fetch layer ${layers.fetch.cpuMicrosPerRequest.toFixed(1)}, a whole warming call ${layers.call.cpuMicrosPerRequest.toFixed(1)}, ` +
        `in a run on ${databaseName(largest.database)} (the engine, reservations, recording${largest.database === "postgres" ? "; not the server's own work" : ", the database"}) ${largest.cpuMicrosPerCall.toFixed(1)}; of bare dispatch's rate: the fetch layer ${(layers.fetch.rate / bare).toFixed(2)}, a warming call ${(layers.call.rate / bare).toFixed(2)}, a run ${(largest.rate / bare).toFixed(2)}`,
    );
  } finally {
    origin.child.disconnect();
  }
}

const sizeArg = process.argv.indexOf("--size");
if (sizeArg > 0) {
  const size = Number(process.argv[sizeArg + 1]);
  const port = Number(process.argv[process.argv.indexOf("--port") + 1]);
  measureSize(size, port)
    .then((result) => process.send!(result, () => process.exit(0)))
    .catch((error) => process.send!({ error: (error as Error).stack ?? String(error) }, () => process.exit(1)));
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
