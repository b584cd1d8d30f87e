import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createApiKey } from "@/lib/auth/api-keys";
import { SCOPES } from "@/lib/auth/scopes";
import { openDatabase } from "@/lib/db";
import { type CachePage, keepWarmVcl, type LifetimeField, startKeepWarmOrigin, visitorHit } from "@/lib/testing/keep-warm-cache";
import { freePort } from "@/lib/testing/ports";
import { startProductionServer } from "@/lib/testing/production-server";
import { startVarnish, type Varnish } from "@/lib/testing/varnish";
import { percentile } from "./percentile";
import { apiCall } from "./through-the-api";

/**
 * Keep-warm measured with real caches (issue 57, item 4), as people run Preheat: the production
 * server and its embedded worker, sites validated and boosts made through /v1, every warming call
 * through Preheat's outbound path to a Varnish (PREHEAT_CONNECT_TO), all on 127.0.0.1.
 *
 * Two caches per warmer: a standard one (an object lives exactly its lifetime) and one that serves a
 * stale copy during its `stale-while-revalidate` window while a request refreshes it. Pages live 60 s,
 * 5 min and 1 h (simulated), said through s-maxage, CDN-Cache-Control and Expires in turn; time is
 * compressed by BENCH_KEEP_WARM_SCALE (default 3: 20 s, 100 s, 1,200 s; never below 20 s). Visitors
 * ask with Zipf popularity (s = 1: page k of N is asked in proportion to 1/k), the same stream on
 * every cache; a visitor's miss is fetched and not stored (lib/testing/keep-warm-cache.ts), so every
 * hit is the warmer's.
 *
 * The warmers, each for the same simulated time: none; keep-warm (`keep_warm: true` on a boost, its
 * first full run started by the minute's tick as for any new keep-warm boost, the visitors' clock
 * starting once it is done); then a cron warmer given at least the calls keep-warm made on the same
 * cache: full runs of a boost triggered through `POST /v1/boosts/{id}/run` every D ÷ runs, as an
 * external cron would (cron's minute resolution cannot say "every 55 s"). The keep-warm phase comes
 * first because its calls set the cron warmer's budget.
 *
 * BENCH_KEEP_WARM_SCALE (3), BENCH_KEEP_WARM_MINUTES (simulated, 30), BENCH_KEEP_WARM_PAGES (30),
 * BENCH_KEEP_WARM_VISITORS (visitor requests a second, 10), BENCH_KEEP_WARM_SLACK (PREHEAT_KEEP_WARM_SLACK_SECONDS, the default 2).
 */
const SCALE = Number(process.env.BENCH_KEEP_WARM_SCALE ?? 3);
const SIMULATED_MINUTES = Number(process.env.BENCH_KEEP_WARM_MINUTES ?? 30);
const PAGE_COUNT = Number(process.env.BENCH_KEEP_WARM_PAGES ?? 30);
const VISITORS_PER_SECOND = Number(process.env.BENCH_KEEP_WARM_VISITORS ?? 10);
const SLACK = process.env.BENCH_KEEP_WARM_SLACK;
/** The issue's lifetimes, simulated; scaled down but never below 20 s, the floor of a lifetime keep-warm is asked to chase here. */
const SIMULATED_LIFETIMES = [60, 300, 3600];
const FIELDS: LifetimeField[] = ["s-maxage", "cdn-cache-control", "expires"];
const DURATION_MS = (SIMULATED_MINUTES * 60_000) / SCALE;
const CACHES = ["standard", "swr"] as const;
type CacheKind = (typeof CACHES)[number];

/** Page k (0-based popularity rank) lives the (k mod 3)th lifetime, said through each field in turn across the ranks. */
const PAGES: CachePage[] = Array.from({ length: PAGE_COUNT }, (_, k) => ({
  path: `/p/${k + 1}`,
  lifetimeSeconds: Math.max(20, Math.round(SIMULATED_LIFETIMES[k % 3]! / SCALE)),
  field: FIELDS[(k + Math.floor(k / 3)) % 3]!,
}));

/** A small seeded generator (mulberry32): the same visitor stream on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The visitors' pages, Zipf-distributed (s = 1) over the pages' popularity ranks. */
function zipfStream(count: number): number[] {
  const weights = PAGES.map((_, k) => 1 / (k + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const next = random(57);
  return Array.from({ length: count }, () => {
    let draw = next() * total;
    for (const [k, weight] of weights.entries()) if ((draw -= weight) <= 0) return k;
    return PAGES.length - 1;
  });
}

type Tally = { hits: number; visits: number; byLifetime: Map<number, { hits: number; visits: number }> };

/** Sends the visitor stream, one request every 1/rate s, each to every cache of `targets` at once, and tallies their hits. */
async function visitorsFor(targets: Record<string, { port: number; host: string }>): Promise<Record<string, Tally>> {
  const stream = zipfStream(Math.round((DURATION_MS / 1000) * VISITORS_PER_SECOND));
  const tallies = Object.fromEntries(Object.keys(targets).map((name) => [name, { hits: 0, visits: 0, byLifetime: new Map() } as Tally]));
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (const [i, k] of stream.entries()) {
    const wait = started + (i * 1000) / VISITORS_PER_SECOND - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const page = PAGES[k]!;
    for (const [name, { port, host }] of Object.entries(targets)) {
      pending.push(
        visitorHit(port, host, page.path).then((hit) => {
          const tally = tallies[name]!;
          const line = tally.byLifetime.get(page.lifetimeSeconds) ?? tally.byLifetime.set(page.lifetimeSeconds, { hits: 0, visits: 0 }).get(page.lifetimeSeconds)!;
          tally.visits++;
          line.visits++;
          if (hit) {
            tally.hits++;
            line.hits++;
          }
        }),
      );
    }
  }
  await Promise.all(pending);
  return tallies;
}

const ratio = (hits: number, visits: number) => (visits ? hits / visits : 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}, ${spawnSync("/usr/sbin/varnishd", ["-V"]).stderr.toString().split("\n")[0]}`;
  const origin = await startKeepWarmOrigin();
  const warmers = ["none", "keep-warm", "cron"] as const;
  const hostOf = (warmer: string, cache: CacheKind) => `${warmer}-${cache}.keep-warm.bench.test`;
  const varnishes: Varnish[] = [];
  const portOf = new Map<string, number>();
  for (const warmer of warmers)
    for (const cache of CACHES) {
      const varnish = await startVarnish(await freePort(), keepWarmVcl(origin.port, { staleWhileRevalidate: cache === "swr" }));
      varnishes.push(varnish);
      portOf.set(hostOf(warmer, cache), varnish.port);
    }
  // The caches without a site in Preheat (no warmer) serve the same pages; the others get their token when their site is made.
  for (const cache of CACHES) origin.serve(hostOf("none", cache), { pages: PAGES, swr: cache === "swr" });

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "preheat-bench-keep-warm-"));
  const handle = await openDatabase({ dataDir });
  const { user } = await findOrCreateUser(handle.db, "keep-warm@bench.test");
  const key = (await createApiKey(handle.db, { accountId: user.accountId, name: "bench", scopes: [...SCOPES] })).key;
  await handle.close();
  // HTTPS too: validation tries it first; the cache speaks plain HTTP, so that attempt fails at once.
  const connectTo = [...portOf].flatMap(([host, port]) => [`${host}:80:127.0.0.1:${port}`, `${host}:443:127.0.0.1:${port}`]).join(",");
  const server = await startProductionServer(await freePort(), {
    PREHEAT_DATA_DIR: dataDir,
    PREHEAT_CONNECT_TO: connectTo,
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
    PREHEAT_RATE_LIMIT_PER_MINUTE: "1000000",
    PREHEAT_MONTHLY_CALL_QUOTA: "1000000000",
    // So that the 20 s lifetimes are chased (the default floor, 60 s, would leave them out).
    PREHEAT_KEEP_WARM_MIN_INTERVAL_SECONDS: "10",
    ...(SLACK ? { PREHEAT_KEEP_WARM_SLACK_SECONDS: SLACK } : {}),
  });
  const api = (method: string, pathname: string, body?: unknown) => apiCall(server.baseUrl, key, method, pathname, body);
  const callsOf = async (boostId: number) => {
    const page = await api("GET", `/v1/runs?boost_id=${boostId}&limit=100`);
    return (page.data as { summary: { total_calls: number } | null }[]).reduce((sum, run) => sum + (run.summary?.total_calls ?? 0), 0);
  };
  const doneRuns = async (boostId: number) => (await api("GET", `/v1/runs?boost_id=${boostId}&limit=100`)).data.filter((run: { status: string }) => run.status === "done").length;
  /** A site for `host`, its ownership proven through its cache, and a boost of its pages from the URL list. */
  const siteWithBoost = async (host: string, keepWarm: boolean) => {
    const site = await api("POST", "/v1/sites", { domain: host });
    origin.serve(host, { token: site.validation_token, pages: PAGES, swr: host.includes("-swr.") });
    await api("POST", `/v1/sites/${site.id}/validate`);
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, {
      name: keepWarm ? "Keep warm" : "Cron",
      source_type: "csv",
      source_url: `http://${host}/urls.csv`,
      region: ["fr"],
      variations: { user_agents: ["desktop"] },
      ...(keepWarm ? { keep_warm: true } : {}),
    });
    return boost.id as number;
  };
  const results: Record<string, Record<CacheKind, { tally: Tally; calls: number }>> = {};
  const coldWindows: Record<string, number[]> = {};
  /** For each page of `host`, how long it was cold between one stored copy's expiry and the warmer's next fetch (ms), by lifetime, within [from, to]. */
  const gaps = (host: string, from: number, to: number) => {
    for (const page of PAGES) {
      const times = (origin.warmerFetches(host).get(page.path) ?? []).filter((t) => t >= from - page.lifetimeSeconds * 1000 && t <= to);
      for (let i = 1; i < times.length; i++) {
        const cold = times[i]! - (times[i - 1]! + page.lifetimeSeconds * 1000);
        (coldWindows[`${host} ${page.lifetimeSeconds} s`] ??= []).push(cold);
      }
    }
  };
  try {
    console.log(
      `${machine}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    console.log(
      `${PAGES.length} pages (lifetimes ${[...new Set(PAGES.map((p) => p.lifetimeSeconds))].join(", ")} s: ${SIMULATED_LIFETIMES.map((s) => `${s} s`).join(", ")} ÷ ${SCALE}), ${SIMULATED_MINUTES} simulated minutes = ${(DURATION_MS / 1000).toFixed(0)} s, ${VISITORS_PER_SECOND} visitors a second (Zipf, s = 1)`,
    );

    // Keep-warm, and no warmer beside it (the same visitors at the same time).
    const keepWarm = Object.fromEntries(await Promise.all(CACHES.map(async (cache) => [cache, await siteWithBoost(hostOf("keep-warm", cache), true)] as const))) as Record<CacheKind, number>;
    const firstRunStarted = Date.now();
    while ((await Promise.all(CACHES.map((cache) => doneRuns(keepWarm[cache])))).some((n) => n === 0)) {
      if (Date.now() - firstRunStarted > 180_000) throw new Error("The keep-warm boosts' first full runs did not end within 3 minutes.");
      await sleep(250);
    }
    console.log(`keep-warm: first full runs done ${((Date.now() - firstRunStarted) / 1000).toFixed(0)} s after the boosts were made (the minute's tick starts them); visitors start now`);
    const kwFrom = Date.now();
    const kwTallies = await visitorsFor(
      Object.fromEntries(warmers.filter((w) => w !== "cron").flatMap((w) => CACHES.map((cache) => [`${w} ${cache}`, { port: portOf.get(hostOf(w, cache))!, host: hostOf(w, cache) }]))),
    );
    const kwTo = Date.now();
    const kwCalls = Object.fromEntries(await Promise.all(CACHES.map(async (cache) => [cache, await callsOf(keepWarm[cache])] as const))) as Record<CacheKind, number>;
    for (const cache of CACHES) await api("PATCH", `/v1/boosts/${keepWarm[cache]}`, { keep_warm: false });
    results.none = { standard: { tally: kwTallies["none standard"]!, calls: 0 }, swr: { tally: kwTallies["none swr"]!, calls: 0 } };
    results["keep-warm"] = { standard: { tally: kwTallies["keep-warm standard"]!, calls: kwCalls.standard }, swr: { tally: kwTallies["keep-warm swr"]!, calls: kwCalls.swr } };
    for (const cache of CACHES) gaps(hostOf("keep-warm", cache), kwFrom, kwTo);

    // Cron: full runs at a steady interval, at least as many calls as keep-warm made on the same cache.
    const cron = Object.fromEntries(await Promise.all(CACHES.map(async (cache) => [cache, await siteWithBoost(hostOf("cron", cache), false)] as const))) as Record<CacheKind, number>;
    const runsOf = (cache: CacheKind) => Math.max(1, Math.ceil(kwCalls[cache] / PAGES.length));
    const intervalOf = (cache: CacheKind) => DURATION_MS / runsOf(cache);
    for (const cache of CACHES)
      console.log(
        `cron (${cache}): ${runsOf(cache)} full runs of ${PAGES.length} calls, one every ${(intervalOf(cache) / 1000).toFixed(1)} s (${((intervalOf(cache) * SCALE) / 60_000).toFixed(1)} simulated minutes)`,
      );
    const trigger = async (cache: CacheKind) => {
      const before = await doneRuns(cron[cache]);
      await api("POST", `/v1/boosts/${cron[cache]}/run`);
      while ((await doneRuns(cron[cache])) === before) await sleep(200);
    };
    await Promise.all(CACHES.map(trigger));
    const cronFrom = Date.now();
    const timers = CACHES.flatMap((cache) =>
      Array.from({ length: runsOf(cache) - 1 }, (_, i) =>
        setTimeout(() => void api("POST", `/v1/boosts/${cron[cache]}/run`).catch((error) => console.log(`cron (${cache}): ${error}`)), (i + 1) * intervalOf(cache)),
      ),
    );
    const cronTallies = await visitorsFor(Object.fromEntries(CACHES.map((cache) => [`cron ${cache}`, { port: portOf.get(hostOf("cron", cache))!, host: hostOf("cron", cache) }])));
    for (const timer of timers) clearTimeout(timer);
    await sleep(3_000);
    for (const cache of CACHES) gaps(hostOf("cron", cache), cronFrom, Date.now());
    results.cron = {
      standard: { tally: cronTallies["cron standard"]!, calls: await callsOf(cron.standard) },
      swr: { tally: cronTallies["cron swr"]!, calls: await callsOf(cron.swr) },
    };

    console.log("\nvisitors' hit ratio and the warmer's calls, per cache");
    console.log("| warmer | standard: hit ratio | calls | stale-while-revalidate: hit ratio | calls |");
    console.log("| --- | ---: | ---: | ---: | ---: |");
    for (const warmer of ["none", "cron", "keep-warm"]) {
      const r = results[warmer]!;
      console.log(
        `| ${warmer} | ${ratio(r.standard.tally.hits, r.standard.tally.visits).toFixed(3)} | ${r.standard.calls} | ${ratio(r.swr.tally.hits, r.swr.tally.visits).toFixed(3)} | ${r.swr.calls} |`,
      );
    }
    for (const cache of CACHES) console.log(`keep-warm's calls ÷ cron's on the ${cache} cache: ${(results["keep-warm"]![cache].calls / Math.max(1, results.cron![cache].calls)).toFixed(2)}`);
    console.log("\nby lifetime (visits, hit ratio)");
    for (const warmer of ["cron", "keep-warm"])
      for (const cache of CACHES) {
        const lines = [...results[warmer]![cache].tally.byLifetime].sort((a, b) => a[0] - b[0]);
        console.log(`  ${warmer} ${cache}: ${lines.map(([lifetime, t]) => `${lifetime} s: ${t.visits} visits, ${ratio(t.hits, t.visits).toFixed(3)}`).join("; ")}`);
      }
    console.log("\ncopies fetched by the warmer: time between a copy's expiry and the next fetch (negative: refreshed before it expired, in its grace or by a hit that renewed nothing)");
    for (const [line, values] of Object.entries(coldWindows))
      console.log(
        `  ${line}: ${values.length} refetches, p50 ${(percentile(values, 50) / 1000).toFixed(2)} s, p90 ${(percentile(values, 90) / 1000).toFixed(2)} s, max ${(percentile(values, 100) / 1000).toFixed(2)} s`,
      );
  } finally {
    await server.stop();
    for (const varnish of varnishes) await varnish.stop();
    await origin.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
