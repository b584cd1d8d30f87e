import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createApiKey } from "@/lib/auth/api-keys";
import { SCOPES } from "@/lib/auth/scopes";
import { openDatabase } from "@/lib/db";
import { freePort } from "@/lib/testing/ports";
import { startProductionServer } from "@/lib/testing/production-server";
import { percentile } from "./percentile";
import { apiCall } from "./through-the-api";

/**
 * A change's time to its first warming call while a big boost warms the same site (issue 58, its
 * closing note), as people run Preheat: the production server (`next start`, its embedded worker,
 * PGlite on disk), everything through /v1, the origin in this process on 127.0.0.1 (every host is
 * pointed at it by PREHEAT_CONNECT_TO; DNS at a closed port), so that no request leaves the machine.
 *
 * One validated site, its max_concurrency BENCH_CHANGES_CONCURRENCY (4), a boost of BENCH_CHANGES_URLS
 * (10,000) pages from a CSV, its variant mobile; every page answers after BENCH_CHANGES_ORIGIN_MS
 * (100 ms). Once the boost warms, BENCH_CHANGES_COUNT (100) changes are sent one at a time, BENCH_CHANGES_GAP
 * ("0.5-2" s, uniform) apart, each `POST /v1/sites/{siteId}/changes` of one page with `delay_seconds: 0`;
 * the page is drawn at random among the boost's pages it has not reached yet. Changes warm with a
 * warm's defaults (desktop), so that the origin tells their calls from the boost's by the User-Agent.
 * Measured at the origin: the time from the request's start to the first desktop call of its page.
 *
 * The references, on the same busy site: the time the boost itself would take to reach the changed
 * page (how far ahead of the boost it is ÷ the boost's call rate measured meanwhile; the boost calls
 * its pages in the CSV's order, which the bench checks); and the same kind of page sent as a plain
 * on-demand warm (`POST /v1/sites/{siteId}/warm`), at most BENCH_CHANGES_WARMS (10), one at a time (a
 * site has one active warm; a changes run is not one), while the changes are sent. A warm refused
 * (409) is left out and said so. Then BENCH_CHANGES_DEFAULT (15) changes without `delay_seconds` (the
 * service's PREHEAT_CHANGE_DELAY_SECONDS, 30 by default), measured the same way and against their
 * run's `warm_at`. Figures of calls made after the boost's last one are left out, and said so.
 *
 * The origin counts calls in flight to the site throughout: above max_concurrency, the bench fails.
 */
const URLS = Number(process.env.BENCH_CHANGES_URLS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CHANGES_CONCURRENCY ?? 4);
const ORIGIN_MS = Number(process.env.BENCH_CHANGES_ORIGIN_MS ?? 100);
const CHANGES = Number(process.env.BENCH_CHANGES_COUNT ?? 100);
const [GAP_MIN, GAP_MAX] = (process.env.BENCH_CHANGES_GAP ?? "0.5-2").split("-").map((s) => Number(s) * 1000) as [number, number];
const WARMS = Number(process.env.BENCH_CHANGES_WARMS ?? 10);
const DEFAULT_DELAY_CHANGES = Number(process.env.BENCH_CHANGES_DEFAULT ?? 15);
/** Boost calls the bench waits for before the first change, so that the boost is in its stride. */
const WARM_UP_CALLS = 200;
/** A change whose page is not called within this is counted as missing. */
const FIRST_CALL_TIMEOUT_MS = 60_000;
const HOST = "shop.changes.bench.test";

/** A small seeded generator (mulberry32): the same gaps and pages on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const draw = random(58);
const gap = () => GAP_MIN + draw() * (GAP_MAX - GAP_MIN);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The site's pages, served after ORIGIN_MS; the boost's calls (mobile) and the others (desktop) noted apart, with the calls in flight. */
async function startOrigin(token: () => string | undefined) {
  const csv = `url\n${Array.from({ length: URLS }, (_, k) => `http://${HOST}/big/${k}`).join("\n")}\n`;
  const state = {
    inFlight: 0,
    peak: 0,
    /** When each boost call arrived (performance.now()), and the page's index, in arrival order. */
    boost: [] as { at: number; k: number }[],
    /** By page index: when each call other than the boost's arrived. */
    others: new Map<number, number[]>(),
  };
  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === "/urls.csv") return void res.writeHead(200, { "content-type": "text/csv" }).end(csv);
    if (token() && url === `/${token()}.html`) return void res.writeHead(200, { "content-type": "text/html" }).end(token());
    const page = /^\/big\/(\d+)$/.exec(url);
    if (!page) return void res.writeHead(404).end();
    const at = performance.now();
    const k = Number(page[1]);
    if ((req.headers["user-agent"] ?? "").includes("iPhone")) state.boost.push({ at, k });
    else state.others.set(k, [...(state.others.get(k) ?? []), at]);
    state.inFlight++;
    state.peak = Math.max(state.peak, state.inFlight);
    setTimeout(() => {
      state.inFlight--;
      res.writeHead(200, { "content-type": "text/html", "cache-control": "public, max-age=60", "x-cache": "MISS" }).end("<!doctype html><p>page</p>");
    }, ORIGIN_MS);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type Origin = Awaited<ReturnType<typeof startOrigin>>;

/** The first call other than the boost's to page k after `since`, waited for up to FIRST_CALL_TIMEOUT_MS; undefined when none came. */
async function firstCallAfter(origin: Origin, k: number, since: number): Promise<number | undefined> {
  for (const deadline = performance.now() + FIRST_CALL_TIMEOUT_MS; performance.now() < deadline; await sleep(10)) {
    const at = origin.state.others.get(k)?.find((t) => t >= since);
    if (at !== undefined) return at;
  }
  return undefined;
}

/** How far the boost has gone: the furthest page it called, and how many calls it made. */
const boostProgress = (origin: Origin) => ({ calls: origin.state.boost.length, furthest: origin.state.boost.reduce((max, call) => Math.max(max, call.k), -1) });

/** The boost's calls a second between two moments (performance.now()). */
/** When the boost's last page was called; infinity while it warms. */
const boostEnd = (origin: Origin) => (origin.state.boost.length >= URLS ? origin.state.boost[URLS - 1]!.at : Number.POSITIVE_INFINITY);

const boostRate = (origin: Origin, from: number, to: number) => origin.state.boost.filter((call) => call.at >= from && call.at < to).length / ((to - from) / 1000);

/** A page the boost has not reached yet (nor any earlier change), at random among them. */
function pageAhead(origin: Origin, used: Set<number>): number {
  const from = boostProgress(origin).furthest + 1 + 4 * CONCURRENCY;
  for (;;) {
    const k = from + Math.floor(draw() * Math.max(1, URLS - from));
    if (!used.has(k) && k < URLS) {
      used.add(k);
      return k;
    }
  }
}

type Sent = { k: number; sentAt: number; aheadOfBoost: number; answeredAt?: number; firstAt?: number; warmAt?: number };

const figures = (label: string, values: number[]) =>
  `${label}: p50 ${seconds(percentile(values, 50))}, p99 ${seconds(percentile(values, 99))}, max ${seconds(percentile(values, 100))} (${values.length} measured)`;

async function main() {
  let token: string | undefined;
  const origin = await startOrigin(() => token);
  const closedPort = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "preheat-bench-changes-"));
  const seeded = await openDatabase({ dataDir });
  const { user } = await findOrCreateUser(seeded.db, "changes@bench.test");
  const { key } = await createApiKey(seeded.db, { accountId: user.accountId, name: "bench", scopes: [...SCOPES] });
  await seeded.close();
  const server = await startProductionServer(await freePort(), {
    PREHEAT_DATA_DIR: dataDir,
    // Every host to the origin on 127.0.0.1; HTTPS and DNS at a port nothing listens on (refused at once).
    PREHEAT_CONNECT_TO: `:80:127.0.0.1:${origin.port},:443:127.0.0.1:${closedPort}`,
    PREHEAT_DNS_SERVERS: `127.0.0.1:${closedPort}`,
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
    PREHEAT_RATE_LIMIT_PER_MINUTE: "1000000",
    PREHEAT_MONTHLY_CALL_QUOTA: "1000000000",
  });
  const api = (method: string, pathname: string, body?: unknown) => apiCall(server.baseUrl, key, method, pathname, body);
  const pageUrl = (k: number) => `http://${HOST}/big/${k}`;
  let failed = false;
  try {
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
    console.log(`${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}; load average ${load}`);
    console.log(
      `the production server (next start, embedded worker, PGlite on disk), through /v1; a boost of ${URLS.toLocaleString("en")} pages (mobile), max_concurrency ${CONCURRENCY}, origin ${ORIGIN_MS} ms a page; ${CHANGES} changes ${GAP_MIN / 1000}–${GAP_MAX / 1000} s apart`,
    );
    const site = await api("POST", "/v1/sites", { domain: HOST });
    token = site.validation_token;
    await api("POST", `/v1/sites/${site.id}/validate`);
    await api("PATCH", `/v1/sites/${site.id}`, { max_concurrency: CONCURRENCY });
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, {
      name: "Big",
      source_type: "csv",
      source_url: `http://${HOST}/urls.csv`,
      region: ["fr"],
      variations: { user_agents: ["mobile"] },
    });
    const boostRun = (await api("POST", `/v1/boosts/${boost.id}/run`)).run_id as number;
    const boostStarted = performance.now();
    while (origin.state.boost.length < WARM_UP_CALLS) {
      if (performance.now() - boostStarted > 120_000) throw new Error(`The boost made ${origin.state.boost.length} calls in 2 minutes.`);
      await sleep(50);
    }
    const firstBoostCall = origin.state.boost[0]!.at;
    const before = performance.now();
    console.log(`boost: first call ${seconds(firstBoostCall - boostStarted)} after POST …/run; alone, ${boostRate(origin, firstBoostCall, before).toFixed(1)} calls/s over its first ${WARM_UP_CALLS}`);
    const used = new Set<number>();

    // 2. The reference measured meanwhile: the same kind of page as a plain on-demand warm of the busy
    // site, one at a time (a site has one active warm), while the changes of 1 are sent.
    const warms: Sent[] = [];
    let refused = 0;
    let changesSent = false;
    const referenceWarms = async () => {
      for (let i = 0; i < WARMS && !changesSent && performance.now() < boostEnd(origin); i++) {
        await sleep(gap());
        const k = pageAhead(origin, used);
        const sent: Sent = { k, sentAt: performance.now(), aheadOfBoost: k - boostProgress(origin).furthest };
        const response = await fetch(`${server.baseUrl}/v1/sites/${site.id}/warm`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ urls: [pageUrl(k)] }),
        });
        const answer = await response.json();
        if (response.status === 409) {
          refused++;
          continue;
        }
        if (response.status !== 202) throw new Error(`POST …/warm: ${response.status} ${JSON.stringify(answer)}`);
        warms.push(sent);
        sent.firstAt = await firstCallAfter(origin, k, sent.sentAt);
        // The next one waits for this one's end.
        while (["pending", "running"].includes((await api("GET", `/v1/runs/${answer.run_id}`)).status)) await sleep(100);
      }
    };

    // 1. Changes with delay_seconds 0, while the boost warms.
    const changes: Sent[] = [];
    const waits: Promise<void>[] = [];
    const phaseStart = performance.now();
    const reference = referenceWarms();
    for (let i = 0; i < CHANGES; i++) {
      const k = pageAhead(origin, used);
      const sent: Sent = { k, sentAt: performance.now(), aheadOfBoost: k - boostProgress(origin).furthest };
      changes.push(sent);
      await api("POST", `/v1/sites/${site.id}/changes`, { urls: [pageUrl(k)], delay_seconds: 0 });
      sent.answeredAt = performance.now();
      waits.push(firstCallAfter(origin, k, sent.sentAt).then((at) => void (sent.firstAt = at)));
      if (i < CHANGES - 1) await sleep(gap());
    }
    changesSent = true;
    await Promise.all([...waits, reference]);
    const phaseEnd = performance.now();
    const rate = boostRate(origin, phaseStart, phaseEnd);
    const busy = changes.filter((c) => c.firstAt !== undefined && c.firstAt < boostEnd(origin));
    const toFirst = busy.map((c) => c.firstAt! - c.sentAt);
    const missing = changes.filter((c) => c.firstAt === undefined).length;
    const afterBoost = changes.filter((c) => c.firstAt !== undefined && c.firstAt >= boostEnd(origin)).length;
    const progress = boostProgress(origin);
    console.log(`\n1. ${CHANGES} changes, delay_seconds 0, one at a time over ${seconds(phaseEnd - phaseStart)}`);
    console.log(figures("   change → its first warming call", toFirst));
    console.log(
      figures(
        "   the request itself (POST …/changes answered)",
        changes.map((c) => c.answeredAt! - c.sentAt),
      ),
    );
    if (missing) console.log(`   ${missing} changes had no call within ${FIRST_CALL_TIMEOUT_MS / 1000} s`);
    if (afterBoost) console.log(`   ${afterBoost} changes were warmed after the boost's last call: left out of the figures above`);
    console.log(
      `   the boost meanwhile: ${rate.toFixed(1)} calls/s, ${progress.calls.toLocaleString("en")} of ${URLS.toLocaleString("en")} calls made (${((100 * progress.calls) / URLS).toFixed(1)} %)`,
    );
    // What a changed page waits for when nothing but the boost warms it: its distance ahead of the boost ÷ the boost's rate.
    const byBoost = busy.map((c) => (c.aheadOfBoost / rate) * 1000);
    console.log(figures("   reference, the boost reaching the page (pages ahead of it ÷ its rate meanwhile; estimated)", byBoost));
    console.log(
      `   ratio change ÷ boost-order reference: p50 ${(percentile(toFirst, 50) / percentile(byBoost, 50)).toFixed(4)}, p99 ${(percentile(toFirst, 99) / percentile(byBoost, 99)).toFixed(4)}`,
    );

    const warmTimes = warms.filter((w) => w.firstAt !== undefined && w.firstAt < boostEnd(origin)).map((w) => w.firstAt! - w.sentAt);
    console.log(`\n2. reference: ${warms.length + refused} plain on-demand warms of one page each (POST …/warm), one at a time, on the same busy site, sent during 1`);
    if (refused) console.log(`   ${refused} refused (409: another warm of the site was active): not measured`);
    if (warmTimes.length) {
      console.log(figures("   warm → its first warming call", warmTimes));
      console.log(`   ratio change ÷ warm: p50 ${(percentile(toFirst, 50) / percentile(warmTimes, 50)).toFixed(3)}, p99 ${(percentile(toFirst, 99) / percentile(warmTimes, 99)).toFixed(3)}`);
    } else console.log("   no warm measured: the reference is the boost-order estimate above");

    // 3. Changes with the service's default delay.
    if (DEFAULT_DELAY_CHANGES > 0 && performance.now() < boostEnd(origin)) {
      const delayed: Sent[] = [];
      const delayedWaits: Promise<void>[] = [];
      const runs = new Set<number>();
      for (let i = 0; i < DEFAULT_DELAY_CHANGES; i++) {
        const k = pageAhead(origin, used);
        const sent: Sent = { k, sentAt: performance.now(), aheadOfBoost: k - boostProgress(origin).furthest };
        delayed.push(sent);
        const answer = await api("POST", `/v1/sites/${site.id}/changes`, { urls: [pageUrl(k)] });
        runs.add(answer.run_id);
        sent.warmAt = performance.now() + (new Date(answer.warm_at).getTime() - Date.now());
        delayedWaits.push(firstCallAfter(origin, k, sent.sentAt).then((at) => void (sent.firstAt = at)));
        if (i < DEFAULT_DELAY_CHANGES - 1) await sleep(gap());
      }
      await Promise.all(delayedWaits);
      const measured = delayed.filter((c) => c.firstAt !== undefined && c.firstAt < boostEnd(origin));
      console.log(`\n3. ${DEFAULT_DELAY_CHANGES} changes with the default delay (no delay_seconds), gathered into ${runs.size} run(s)`);
      console.log(
        figures(
          "   change → its first warming call",
          measured.map((c) => c.firstAt! - c.sentAt),
        ),
      );
      console.log(
        figures(
          "   its run's warm_at → the first warming call",
          measured.map((c) => c.firstAt! - c.warmAt!),
        ),
      );
      const lost = delayed.length - measured.length;
      if (lost) console.log(`   ${lost} not measured (no call within ${FIRST_CALL_TIMEOUT_MS / 1000} s, or after the boost's end)`);
    }

    // The boost-order reference assumes the boost calls its pages in the CSV's order: how far from it they came.
    const displaced = origin.state.boost.reduce((max, call, i) => Math.max(max, Math.abs(call.k - i)), 0);
    console.log(`\nthe boost's order: its i-th call was page i ± ${displaced.toLocaleString("en")} at most (the CSV's order, but for the calls in flight)`);
    const run = await api("GET", `/v1/runs/${boostRun}`);
    const end = boostProgress(origin);
    console.log(`boost at the end: ${run.status}, ${end.calls.toLocaleString("en")} of ${URLS.toLocaleString("en")} calls at the origin (${((100 * end.calls) / URLS).toFixed(1)} %)`);
    console.log(`calls in flight at the origin, at most: ${origin.state.peak} (the site's max_concurrency: ${CONCURRENCY})`);
    if (origin.state.peak > CONCURRENCY) {
      failed = true;
      console.error(`FAILED: ${origin.state.peak} calls in flight at once, above the site's max_concurrency of ${CONCURRENCY}.`);
    }
  } finally {
    await server.stop();
    await origin.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) process.exit(1);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
