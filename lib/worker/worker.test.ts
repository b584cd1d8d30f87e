import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runs, sitemaps, sitemapUrls, sites, workers as workerRows } from "@/drizzle/schema";
import { createBoost } from "@/lib/boosts/service";
import { triggerBoostRun } from "@/lib/boosts/trigger";
import { getRun } from "@/lib/runs/service";
import { queueWarm } from "@/lib/runs/warm-runs";
import { regionsWithEgress, regionsWithWorkers } from "@/lib/warm/workers";
import { processSitemap } from "@/lib/sitemaps/process";
import { findOrCreateUser } from "@/lib/accounts/users";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite } from "@/lib/sites/service";
import { postgresBinDir, startPostgresServer } from "@/lib/testing/postgres-server";
import { startEmbeddedJobs } from "./embedded";

function answerSitemap(res: http.ServerResponse, host: string, pages: number) {
  const locs = Array.from({ length: pages }, (_, i) => `<url><loc>http://${host}/p/${i}</loc></url>`).join("");
  res.writeHead(200, { "content-type": "application/xml" }).end(`<urlset>${locs}</urlset>`);
}

/** `paced` hosts: a CSV of PACED_PAGES URLs, pages answered after 100 ms; calls at once are counted. */
const PACED_PAGES = 60;
const pacedOpen = new Map<string, number>();
const pacedMost = new Map<string, number>();
const pacedPages = new Map<string, number>();
function answerPaced(req: http.IncomingMessage, res: http.ServerResponse, host: string) {
  if (req.url === "/urls.csv") {
    const rows = Array.from({ length: PACED_PAGES }, (_, i) => `http://${host}/p/${i}`);
    return void res.writeHead(200, { "content-type": "text/csv" }).end(`url\n${rows.join("\n")}\n`);
  }
  pacedPages.set(host, (pacedPages.get(host) ?? 0) + 1);
  const open = (pacedOpen.get(host) ?? 0) + 1;
  pacedOpen.set(host, open);
  pacedMost.set(host, Math.max(pacedMost.get(host) ?? 0, open));
  setTimeout(() => {
    pacedOpen.set(host, pacedOpen.get(host)! - 1);
    res.writeHead(200, { "content-type": "text/html" }).end("page");
  }, 100);
}

/** `regional` hosts: pages counted per host and the port they came in through. */
const byPort = new Map<string, number>();

/** A local origin: each host's sitemap lists 3 URLs; `stall` hosts do not answer their first request. */
const requests = new Map<string, number>();
const stalled = new Set<string>();
let origin: http.Server;
let originPort: number;
const root = path.resolve(import.meta.dirname, "../..");

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    if (host.startsWith("paced")) return answerPaced(req, res, host);
    if (host.startsWith("regional")) {
      const key = `${host}:${req.socket.localPort}`;
      byPort.set(key, (byPort.get(key) ?? 0) + 1);
      return void res.writeHead(200, { "content-type": "text/html" }).end("page");
    }
    const count = (requests.get(host) ?? 0) + 1;
    requests.set(host, count);
    const answer = () => res.writeHead(200, { "content-type": "application/xml" }).end(`<urlset>${["a", "b", "c"].map((p) => `<url><loc>http://${host}/${p}</loc></url>`).join("")}</urlset>`);
    if (host.startsWith("stall") && count === 1) {
      stalled.add(host); // never answered: the worker is killed meanwhile
      return;
    }
    setTimeout(answer, 200);
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  originPort = (origin.address() as AddressInfo).port;
});
afterAll(() => {
  origin.closeAllConnections();
  return new Promise((resolve) => origin.close(resolve));
});

/** The same job settings for this process (which queues the jobs) and the workers. */
const jobSettings = {
  PREHEAT_JOBS_POLL_SECONDS: "0.5",
  PREHEAT_JOB_EXPIRE_SECONDS: "3",
  PREHEAT_JOBS_MAINTENANCE_SECONDS: "1",
  PREHEAT_JOB_RETRY_DELAY_SECONDS: "1",
  PREHEAT_SITE_SLOT_TTL_SECONDS: "2",
};
Object.assign(process.env, jobSettings);

function startWorker(env: Record<string, string>, args: string[] = []): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "lib/worker/main.ts", ...args], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      ...jobSettings,
      PREHEAT_CONNECT_TO: `:80:127.0.0.1:${originPort}`,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr?.on("data", (chunk) => process.env.PREHEAT_TEST_WORKER_LOG && process.stderr.write(chunk));
  child.stdout?.on("data", (chunk) => process.env.PREHEAT_TEST_WORKER_LOG && process.stderr.write(chunk));
  return child;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
  if (child.exitCode !== null || child.signalCode) return;
  child.kill(signal);
  await new Promise((resolve) => child.once("exit", resolve));
}

async function sitemapState(handle: DatabaseHandle, id: number) {
  const [row] = await handle.db.select().from(sitemaps).where(eq(sitemaps.id, id));
  const urls = await handle.db.select().from(sitemapUrls).where(eq(sitemapUrls.sitemapId, id));
  return { row: row!, urls: urls.length };
}

/** Queues sitemap jobs from this process (send only), as the server does. */
async function queueSitemaps(handle: DatabaseHandle, hosts: string[]) {
  const jobs = await startEmbeddedJobs(handle, { work: false });
  const { user } = await findOrCreateUser(handle.db, `worker-${Date.now()}@example.com`);
  const ctx = { db: handle.db, accountId: user.accountId };
  const ids: number[] = [];
  for (const host of hosts) {
    const site = await createSite(ctx, { domain: host });
    ids.push((await addSitemap(ctx, site.id, { url: `http://${host}/sitemap.xml` })).id);
  }
  return { ids, jobs };
}

const installed = Boolean(postgresBinDir());

describe.skipIf(!installed)("workers on a PostgreSQL server", () => {
  let server: Awaited<ReturnType<typeof startPostgresServer>>;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    server = await startPostgresServer();
    process.env.DATABASE_URL = server.url;
    handle = await openDatabase();
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    delete process.env.DATABASE_URL;
    await server?.stop();
  });

  it("a worker killed mid-job: another finishes the job and its effect is recorded once", async () => {
    const { ids, jobs } = await queueSitemaps(handle, ["stall-pg.test"]);
    const first = startWorker({ DATABASE_URL: server.url });
    await until("the first worker to fetch the sitemap", () => stalled.has("stall-pg.test"));
    await stop(first, "SIGKILL");
    const second = startWorker({ DATABASE_URL: server.url });
    try {
      const state = await until("the sitemap to be processed", async () => {
        const s = await sitemapState(handle, ids[0]!);
        return s.row.status === "done" ? s : undefined;
      });
      expect(state.row.urlCount).toBe(3);
      expect(state.urls).toBe(3);
      expect(requests.get("stall-pg.test")).toBe(2);
    } finally {
      await stop(second);
      await jobs.stop();
    }
  }, 90_000);

  it("two workers share a site's max_concurrency, and a worker killed mid-run loses nothing", async () => {
    const host = "paced-pg.test";
    const jobs = await startEmbeddedJobs(handle, { work: false });
    const { user } = await findOrCreateUser(handle.db, `paced-${Date.now()}@example.com`);
    const ctx = { db: handle.db, accountId: user.accountId };
    const site = await createSite(ctx, { domain: host });
    await handle.db.update(sites).set({ validated: true, maxConcurrency: 3 }).where(eq(sites.id, site.id));
    // One run at a time per worker: both workers warm the site at once, each with its own runs.
    const oneRunEach = { DATABASE_URL: server.url, PREHEAT_WORKER_MAX_IN_FLIGHT: "2" };
    const workers = [startWorker(oneRunEach), startWorker(oneRunEach)];
    try {
      const runIds: number[] = [];
      for (const name of ["First", "Second", "Third"]) {
        const boost = await createBoost(ctx, site.id, { name, source_type: "csv", source_url: `http://${host}/urls.csv`, region: ["fr", "de"] });
        runIds.push((await triggerBoostRun(ctx, boost.id)).id);
      }
      // Half-way, one worker dies: the other takes its runs over (after the job's expiry) and ends them.
      await until("half of the calls", () => (pacedPages.get(host) ?? 0) >= (runIds.length * PACED_PAGES * 2) / 2 || undefined);
      await stop(workers[0]!, "SIGKILL");
      const ended = await until(
        "every run to end",
        async () => {
          const all = await Promise.all(runIds.map((id) => getRun(ctx, id)));
          return all.every((run) => run.status === "done") ? all : undefined;
        },
        120_000,
      );
      const total = ended.reduce((sum, run) => sum + run.summary.total_calls, 0);
      const failed = ended.reduce((sum, run) => sum + run.summary.failed_calls, 0);
      expect(total).toBe(runIds.length * PACED_PAGES * 2);
      // Each call counts once. The site answers every call it gets, so the only failures are the
      // calls the dead worker had handed out and not recorded yet: never sent again, counted as
      // interrupted whether they had left or not (the site may have seen them: a second call would
      // count twice). A few recordings' worth at most.
      const seen = pacedPages.get(host)!;
      expect(seen).toBeLessThanOrEqual(total);
      expect(seen).toBeGreaterThanOrEqual(total - failed);
      expect(failed).toBeLessThan(20);
      expect(pacedMost.get(host)).toBeLessThanOrEqual(3);
    } finally {
      await Promise.all(workers.map((w) => stop(w)));
      await jobs.stop();
    }
  }, 150_000);

  it("a regional worker (--regions de) takes only de's calls, and the run and /v1/me say so", async () => {
    // A second port into the same origin: the regional worker's calls arrive there.
    const regionalOrigin = http.createServer(origin.listeners("request")[0] as http.RequestListener);
    await new Promise<void>((resolve) => regionalOrigin.listen(0, "127.0.0.1", resolve));
    const regionalPort = (regionalOrigin.address() as AddressInfo).port;
    const jobs = await startEmbeddedJobs(handle, { work: false });
    const regional = startWorker({ DATABASE_URL: server.url, PREHEAT_CONNECT_TO: `:80:127.0.0.1:${regionalPort}` }, ["--regions", "de"]);
    let general: ChildProcess | undefined;
    try {
      await until("the regional worker to report in", async () => (await regionsWithWorkers(handle.db)).has("de") || undefined);
      general = startWorker({ DATABASE_URL: server.url });
      const regions = await regionsWithEgress(handle.db);
      expect(regions.find((r) => r.code === "de")?.egress).toBe("worker");
      expect(regions.filter((r) => r.code !== "de").every((r) => r.egress === "local")).toBe(true);

      const host = "regional-pg.test";
      const { user } = await findOrCreateUser(handle.db, `regional-${Date.now()}@example.com`);
      const ctx = { db: handle.db, accountId: user.accountId };
      const site = await createSite(ctx, { domain: host });
      await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
      const urls = Array.from({ length: 20 }, (_, i) => `http://${host}/p/${i}`);
      const { run } = await queueWarm(ctx, site.id, { urls, region: ["fr", "de", "us"] });
      const ended = await until("the run to end", async () => {
        const current = await getRun(ctx, run.id);
        return current.status === "done" ? current : undefined;
      });
      expect(ended.summary.total_calls).toBe(60);
      // de's 20 calls left through the regional worker's port, fr's and us's through the other worker's.
      expect(byPort.get(`${host}:${regionalPort}`)).toBe(20);
      expect(byPort.get(`${host}:${originPort}`)).toBe(40);
      const egress = Object.fromEntries(ended.regions_breakdown.map((r) => [r.region, r.egress]));
      expect(egress).toEqual({ fr: "local", de: "worker", us: "local" });
    } finally {
      await Promise.all([regional, general].filter((w): w is ChildProcess => Boolean(w)).map((w) => stop(w)));
      await jobs.stop();
      regionalOrigin.closeAllConnections();
      await new Promise((resolve) => regionalOrigin.close(resolve));
    }
    // A regional worker that stopped no longer counts.
    expect((await regionsWithWorkers(handle.db)).has("de")).toBe(false);
  }, 90_000);

  it("a worker hears of a run queued by another process at once (NOTIFY), not at its next poll", async () => {
    const jobs = await startEmbeddedJobs(handle, { work: false });
    const known = new Set((await handle.db.select({ id: workerRows.id }).from(workerRows)).map((w) => w.id));
    const worker = startWorker({ DATABASE_URL: server.url, PREHEAT_JOBS_POLL_SECONDS: "120" });
    try {
      // Reported in: its pumps have looked once and sleep for two minutes.
      await until("the worker to report in", async () => (await handle.db.select({ id: workerRows.id }).from(workerRows)).some((w) => !known.has(w.id)) || undefined);
      const { user } = await findOrCreateUser(handle.db, `notified-${Date.now()}@example.com`);
      const ctx = { db: handle.db, accountId: user.accountId };
      const site = await createSite(ctx, { domain: "notified-pg.test" });
      await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
      const { run } = await queueWarm(ctx, site.id, { urls: ["http://notified-pg.test/a", "http://notified-pg.test/b"], region: ["fr"] });
      const ended = await until(
        "the run to end",
        async () => {
          const current = await getRun(ctx, run.id);
          return current.status === "done" ? current : undefined;
        },
        20_000,
      );
      expect(ended.summary.total_calls).toBe(2);
    } finally {
      await stop(worker);
      await jobs.stop();
    }
  }, 60_000);

  it("two workers never run the same job at once", async () => {
    const hosts = Array.from({ length: 12 }, (_, i) => `pair-${i}.test`);
    const workers = [startWorker({ DATABASE_URL: server.url }), startWorker({ DATABASE_URL: server.url })];
    const { ids, jobs } = await queueSitemaps(handle, hosts);
    try {
      await until("every sitemap to be processed", async () => {
        const states = await Promise.all(ids.map((id) => sitemapState(handle, id)));
        return states.every((s) => s.row.status === "done") || undefined;
      });
      for (const host of hosts) expect(requests.get(host), host).toBe(1);
    } finally {
      await Promise.all(workers.map((w) => stop(w)));
      await jobs.stop();
    }
  }, 90_000);
});

describe("a worker on the embedded database", () => {
  it("killed mid-job and restarted, finishes the job once", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-worker-"));
    const previous = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      let handle = await openDatabase({ dataDir });
      const { ids, jobs } = await queueSitemaps(handle, ["stall-embedded.test"]);
      await jobs.stop();
      await handle.close();
      const first = startWorker({ PREHEAT_DATA_DIR: dataDir, DATABASE_URL: "" });
      await until("the worker to fetch the sitemap", () => stalled.has("stall-embedded.test"));
      await stop(first, "SIGKILL");
      const second = startWorker({ PREHEAT_DATA_DIR: dataDir, DATABASE_URL: "" });
      await until("the restarted worker to finish", () => (requests.get("stall-embedded.test") ?? 0) >= 2 || undefined);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await stop(second);
      handle = await openDatabase({ dataDir });
      const state = await sitemapState(handle, ids[0]!);
      await handle.close();
      expect(state.row.status).toBe("done");
      expect(state.urls).toBe(3);
      expect(requests.get("stall-embedded.test")).toBe(2);
    } finally {
      if (previous !== undefined) process.env.DATABASE_URL = previous;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe("a boost run on the embedded database", () => {
  /**
   * Its own origin: each run-* host lists 40 pages; a page answers after 150 ms, and once
   * HOLD_AFTER pages have been requested, the next ones are held unanswered while `holding`: the
   * worker is then killed with exactly the calls of a full window in flight.
   */
  const HOLD_AFTER = 24;
  const CONCURRENCY = 4;
  const pages: string[] = [];
  const held: http.ServerResponse[] = [];
  let holding = true;
  let runOrigin: http.Server;
  let runOriginPort: number;
  beforeAll(async () => {
    runOrigin = http.createServer((req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      if (req.url === "/sitemap.xml") return answerSitemap(res, host, 40);
      pages.push(req.url ?? "");
      if (holding && pages.length > HOLD_AFTER) return void held.push(res);
      setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end("page"), 150);
    });
    await new Promise<void>((resolve) => runOrigin.listen(0, "127.0.0.1", resolve));
    runOriginPort = (runOrigin.address() as AddressInfo).port;
  });
  afterAll(() => {
    runOrigin.closeAllConnections();
    return new Promise((resolve) => runOrigin.close(resolve));
  });

  /** The settings of both workers: this origin, the window, and a job expiry that never cuts a job short here. */
  const runSettings = () => ({
    PREHEAT_CONNECT_TO: `:80:127.0.0.1:${runOriginPort}`,
    PREHEAT_SITE_CONCURRENCY: String(CONCURRENCY),
    PREHEAT_JOB_EXPIRE_SECONDS: "60",
  });

  it("killed mid-way, resumes, and its totals equal the origin's request count", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-run-"));
    const saved = Object.fromEntries(["DATABASE_URL", ...Object.keys(runSettings())].map((name) => [name, process.env[name]]));
    delete process.env.DATABASE_URL;
    const host = "run-kill.test";
    let first: ChildProcess | undefined;
    let handle: DatabaseHandle | undefined;
    let jobs: Awaited<ReturnType<typeof startEmbeddedJobs>> | undefined;
    try {
      handle = await openDatabase({ dataDir });
      const queueing = await startEmbeddedJobs(handle, { work: false });
      const { user } = await findOrCreateUser(handle.db, "run-kill@example.com");
      const ctx = { db: handle.db, accountId: user.accountId };
      const site = await createSite(ctx, { domain: host });
      await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
      const sitemap = await addSitemap(ctx, site.id, { url: `http://${host}/sitemap.xml` });
      process.env.PREHEAT_CONNECT_TO = runSettings().PREHEAT_CONNECT_TO;
      await processSitemap(handle.db, sitemap.id);
      const boost = await createBoost(ctx, site.id, { name: "Kill", source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr", "de"] });
      const run = await triggerBoostRun(ctx, boost.id);
      await queueing.stop();
      await handle.close();
      handle = undefined;

      // A worker process warms the first HOLD_AFTER pages, then has a full window held by the origin.
      first = spawn(process.execPath, ["--import", "tsx", "lib/worker/main.ts"], {
        cwd: root,
        env: { ...process.env, ...jobSettings, ...runSettings(), PREHEAT_DATA_DIR: dataDir, DATABASE_URL: "" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      first.stderr?.on("data", (chunk) => process.env.PREHEAT_TEST_WORKER_LOG && process.stderr.write(chunk));
      first.stdout?.on("data", (chunk) => process.env.PREHEAT_TEST_WORKER_LOG && process.stderr.write(chunk));
      await until("a full window of calls held by the origin", () => held.length >= CONCURRENCY || undefined);
      // The window is full: nothing more goes out, and the answered calls get recorded (every 250 ms).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(pages).toHaveLength(HOLD_AFTER + CONCURRENCY);
      await stop(first, "SIGKILL");
      holding = false;
      for (const res of held) res.destroy();

      // A restarted worker (in this process, so that the test can read the database it owns) resumes the run.
      Object.assign(process.env, runSettings());
      handle = await openDatabase({ dataDir });
      jobs = await startEmbeddedJobs(handle, { work: true });
      const account = { db: handle.db, accountId: user.accountId };
      const ended = await until("the run to end", async () => {
        const current = await getRun(account, run.id);
        return ["done", "failed", "paused"].includes(current.status) ? current : undefined;
      });
      expect(ended.status).toBe("done");
      expect(ended.progress).toEqual({ planned_calls: 80, completed_calls: 80 });
      expect(ended.summary.total_calls).toBe(80);
      // Every call reached the origin once: 40 pages × 2 regions (both direct), none sent twice.
      expect(pages).toHaveLength(ended.summary.total_calls);
      const perPath = new Map<string, number>();
      for (const page of pages) perPath.set(page, (perPath.get(page) ?? 0) + 1);
      expect(perPath.size).toBe(40);
      expect([...perPath.values()].every((n) => n === 2)).toBe(true);
      // The held calls count once, as interrupted failures; every other call succeeded.
      expect(ended.summary.failed_calls).toBeGreaterThanOrEqual(CONCURRENCY);
      expect(ended.summary.successful_calls + ended.summary.failed_calls).toBe(80);
      const [row] = await handle.db.select({ samples: runs.failureSamples }).from(runs).where(eq(runs.id, run.id));
      expect(row!.samples.length).toBeGreaterThan(0);
      expect(row!.samples.every((sample) => sample.error.startsWith("interrupted"))).toBe(true);
    } finally {
      if (first) await stop(first, "SIGKILL");
      await jobs?.stop();
      await handle?.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
