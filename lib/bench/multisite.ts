import { fork } from "node:child_process";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { runs, sites } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { openDatabase } from "@/lib/db";
import { queueWarm } from "@/lib/runs/warm-runs";
import { createSite } from "@/lib/sites/service";
import { startEmbeddedJobs } from "@/lib/worker/embedded";

/**
 * Many tenants at once (issue 11): N sites × M URLs behind one local origin that answers after a
 * fixed delay, each site with concurrency C, all queued together as on-demand warms (one account
 * per 10 sites) and worked by one embedded worker (pg-boss on an in-memory PGlite). The ideal is
 * N × C / delay calls per second; the ratio is the aggregate rate over the ideal. A run longer than
 * BENCH_MAX_SECONDS is measured on the calls made by then. The rate is taken over the calls' own
 * span at the origin (first request to last answer); the wall time, planning included, is printed too.
 *
 * BENCH_CASES: "sites×urls×concurrency×delayMs" list (default 200x100x4x200,1000x20x2x500).
 */
type Case = { sites: number; urls: number; concurrency: number; delayMs: number };
const CASES: Case[] = (process.env.BENCH_CASES ?? "200x100x4x200,1000x20x2x500").split(",").map((spec) => {
  const [sitesCount, urls, concurrency, delayMs] = spec.split("x").map(Number);
  return { sites: sitesCount!, urls: urls!, concurrency: concurrency!, delayMs: delayMs! };
});
const MAX_SECONDS = Number(process.env.BENCH_MAX_SECONDS ?? 120);

type OriginStats = { served: number; peak: number; peakPerSite: number; spanMs: number };

async function startOrigin(delayMs: number) {
  const child = fork(path.join(import.meta.dirname, "delayed-origin.ts"), { execArgv: ["--import", "tsx"], env: { ...process.env, BENCH_DELAY_MS: String(delayMs) } });
  const port = await new Promise<number>((resolve) => child.once("message", (m: { port: number }) => resolve(m.port)));
  const stats = () =>
    new Promise<OriginStats>((resolve) => {
      child.once("message", (m: OriginStats) => resolve(m));
      child.send({ type: "stats" });
    });
  return { port, stats, stop: () => child.kill() };
}

async function measure(c: Case) {
  const origin = await startOrigin(c.delayMs);
  process.env.PREHEAT_CONNECT_TO = `:80:127.0.0.1:${origin.port}`;
  process.env.PREHEAT_ALLOW_PRIVATE_NETWORK = "true";
  process.env.PREHEAT_MONTHLY_CALL_QUOTA = "1000000000";
  process.env.PREHEAT_SITE_CONCURRENCY = String(c.concurrency);
  process.env.PREHEAT_SITE_MAX_CONCURRENCY = String(Math.max(16, c.concurrency));
  delete process.env.DATABASE_URL;
  const handle = await openDatabase({ dataDir: "memory://" });
  const idleRss = process.memoryUsage().rss;
  const ids: number[] = [];
  for (let s = 0; s < c.sites; s++) {
    const { user } = await findOrCreateUser(handle.db, `tenant-${Math.floor(s / 10)}@bench.test`);
    const ctx = { db: handle.db, accountId: user.accountId };
    const site = await createSite(ctx, { domain: `site-${s}.bench.test` });
    await handle.db.update(sites).set({ validated: true }).where(inArray(sites.id, [site.id]));
    const { run } = await queueWarm(ctx, site.id, { urls: Array.from({ length: c.urls }, (_, i) => `http://site-${s}.bench.test/p/${i}`), region: ["fr"] });
    ids.push(run.id);
  }
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  const started = performance.now();
  const jobs = await startEmbeddedJobs(handle, { work: true });
  const total = c.sites * c.urls;
  let done = 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rows = await handle.db.select({ status: runs.status }).from(runs).where(inArray(runs.id, ids));
    done = rows.filter((r) => r.status === "done").length;
    if (done === ids.length || (performance.now() - started) / 1000 > MAX_SECONDS) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const stats = await origin.stats();
  clearInterval(sampler);
  await jobs.stop();
  await handle.close();
  origin.stop();
  // The rate over the calls' own span (first request to last answer at the origin): planning, which
  // comes before, is reported apart as the wall time.
  const rate = stats.served / (stats.spanMs / 1000);
  const ideal = (c.sites * c.concurrency) / (c.delayMs / 1000);
  const cut = done < ids.length ? ` (stopped after ${MAX_SECONDS} s with ${done} of ${ids.length} runs done)` : "";
  console.log(`${c.sites} sites × ${c.urls} URLs, concurrency ${c.concurrency}, origin delay ${c.delayMs} ms: ${stats.served.toLocaleString("en")} of ${total.toLocaleString("en")} calls, ${(stats.spanMs / 1000).toFixed(1)} s from first call to last answer, ${seconds.toFixed(1)} s wall time with planning${cut}`);
  console.log(`  aggregate ${Math.round(rate).toLocaleString("en")} calls/s, ideal ${Math.round(ideal).toLocaleString("en")} calls/s (N × C / delay): ratio ${(rate / ideal).toFixed(2)}`);
  console.log(`  peak calls in flight ${stats.peak} (ideal ${c.sites * c.concurrency}), peak per site ${stats.peakPerSite} (limit ${c.concurrency}${stats.peakPerSite > c.concurrency ? ": EXCEEDED" : ""})`);
  console.log(`  worker RSS ${Math.round(idleRss / 1048576)} MiB idle, peak ${Math.round(peakRss / 1048576)} MiB (+${Math.round((peakRss - idleRss) / 1048576)} MiB)`);
}

async function main() {
  console.log(`machine: ${(await import("node:os")).cpus().length} cores, Node ${process.version}; one embedded worker (pg-boss on in-memory PGlite), origin in its own process`);
  for (const c of CASES) await measure(c);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
