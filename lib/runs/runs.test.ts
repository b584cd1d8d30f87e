import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEnded } from "@/lib/testing/run-end";
import { startConnectProxy } from "@/lib/testing/connect-proxy";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { boosts, emailOutbox, runs, sites } from "@/drizzle/schema";
import { TooManyRequestsError } from "@/lib/core/errors";
import { findOrCreateUser } from "@/lib/accounts/users";
import { startDueBoosts } from "@/lib/boosts/schedule-tick";
import { createBoost, getBoost } from "@/lib/boosts/service";
import type { AccountContext } from "@/lib/context";
import type { DatabaseHandle } from "@/lib/db";
import { processSitemap } from "@/lib/sitemaps/process";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite, updateSite } from "@/lib/sites/service";
import { USER_AGENTS } from "@/lib/warm/user-agents";
import { queueWarm } from "@/lib/runs/warm-runs";
import { reportRunEnd } from "@/lib/worker/run-report";
import { recordFreshness } from "@/lib/freshness/history";
import { estimateBoost } from "@/lib/boosts/estimate";
import { triggerBoostRun } from "@/lib/boosts/trigger";
import { getRun, listRuns } from "./service";
import { summariseRuns } from "./summary";

type Seen = { path: string; ua: string; lang: string | undefined; pragma: string | undefined };
type Behaviour = { pages: number; status?: number; headers?: Record<string, string>; delayMs?: number; slowAfter?: { calls: number; delayMs: number } };
const behaviours = new Map<string, Behaviour>();
/** Requests being answered per host now, and the most there ever were at once. */
const open = new Map<string, number>();
const mostOpen = new Map<string, number>();
const seen = new Map<string, Seen[]>();
let world: LocalWorld;
let handle: DatabaseHandle;
let ctx: AccountContext;

beforeAll(async () => {
  process.env.PREHEAT_JOBS_POLL_SECONDS = "0.5";
  world = await startLocalWorld(
    (req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      const site = behaviours.get(host) ?? { pages: 0 };
      if (req.url === "/sitemap.xml") {
        const locs = Array.from({ length: site.pages }, (_, i) => `<url><loc>http://${host}/p/${i}</loc></url>`).join("");
        return void res.writeHead(200, { "content-type": "application/xml" }).end(`<urlset>${locs}</urlset>`);
      }
      const list = seen.get(host) ?? [];
      list.push({ path: req.url ?? "", ua: String(req.headers["user-agent"]), lang: req.headers["accept-language"] as string | undefined, pragma: req.headers.pragma as string | undefined });
      seen.set(host, list);
      open.set(host, (open.get(host) ?? 0) + 1);
      mostOpen.set(host, Math.max(mostOpen.get(host) ?? 0, open.get(host)!));
      setTimeout(
        () => {
          open.set(host, open.get(host)! - 1);
          res.writeHead(site.status ?? 200, { "content-type": "text/html", ...site.headers }).end("<html><body>page</body></html>");
        },
        site.slowAfter && list.length > site.slowAfter.calls ? site.slowAfter.delayMs : (site.delayMs ?? 0),
      );
    },
    { email: "runs@example.com", work: true },
  );
  ({ handle, ctx } = world);
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

/** A site served by the local origin with `pages` URLs in its sitemap, processed and ready. */
async function siteWithSitemap(domain: string, behaviour: Behaviour, validated = true) {
  behaviours.set(domain, behaviour);
  const site = await createSite(ctx, { domain });
  if (validated) await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
  const sitemap = await addSitemap(ctx, site.id, { url: `http://${domain}/sitemap.xml` });
  await processSitemap(handle.db, sitemap.id);
  return { site, sitemapId: sitemap.id };
}

const ended = (runId: number, timeoutMs?: number) => runEnded(ctx, runId, timeoutMs);

describe("boost runs", () => {
  it("make exactly URL × user agent × language × region requests, with the right headers", async () => {
    const { site, sitemapId } = await siteWithSitemap("variations.test", { pages: 3 });
    const boost = await createBoost(ctx, site.id, {
      name: "All",
      source_type: "sitemap",
      sitemap_ids: [sitemapId],
      region: ["fr", "us"],
      variations: { user_agents: ["mobile", "bot"], languages: ["fr-FR", "en-US"] },
    });
    const run = await ended((await triggerBoostRun(ctx, boost.id)).id);
    const requests = seen.get("variations.test")!;
    expect(requests).toHaveLength(3 * 2 * 2 * 2);
    expect(run).toMatchObject({ status: "done", progress: { planned_calls: 24, completed_calls: 24 } });
    expect(run.summary).toMatchObject({ total_calls: 24, successful_calls: 24, failed_calls: 0, cache_hits: 0 });
    expect(run.started_at).not.toBeNull();
    expect(run.finished_at).not.toBeNull();
    expect(new Set(requests.map((r) => r.ua))).toEqual(new Set([USER_AGENTS.mobile, USER_AGENTS.bot]));
    expect(new Set(requests.map((r) => r.lang?.split(",")[0]))).toEqual(new Set(["fr-FR", "en-US"]));
    expect(requests.every((r) => r.pragma === "akamai-x-cache-on")).toBe(true);
    for (const path of ["/p/0", "/p/1", "/p/2"]) expect(requests.filter((r) => r.path === path)).toHaveLength(8);
    expect((await getBoost(ctx, boost.id)).status).toBe("active");
  });

  it("make what the estimate said: the same calls in all and per region", async () => {
    const { site, sitemapId } = await siteWithSitemap("estimate.test", { pages: 7 });
    const boost = await createBoost(ctx, site.id, {
      name: "Estimated",
      source_type: "sitemap",
      sitemap_ids: [sitemapId],
      region: ["fr", "de", "us"],
      variations: { user_agents: ["mobile", "desktop"] },
      url_root: "/p/",
      call_limit: 25,
    });
    const estimate = await estimateBoost(ctx, boost.id);
    expect(estimate).toMatchObject({
      urls: 7,
      calls: 25,
      calls_by_region: { fr: 9, de: 8, us: 8 },
      notes: ["stopped at the call limit of 25", expect.stringContaining("fr, de and us leave through Preheat's own network")],
    });
    expect(estimate.quota_remaining).toBeGreaterThan(0);
    const run = await ended((await triggerBoostRun(ctx, boost.id)).id);
    expect(run.summary.total_calls).toBe(estimate.calls);
    expect(Object.fromEntries(run.regions_breakdown.map((r) => [r.region, r.total_calls]))).toEqual(estimate.calls_by_region);
  });

  it("count cache hits and points of presence", async () => {
    const { site, sitemapId } = await siteWithSitemap("hits.test", { pages: 4, headers: { "cf-cache-status": "HIT", "cf-ray": "8f1b2c3d4e5f6a7b-CDG" } });
    const boost = await createBoost(ctx, site.id, { name: "Hits", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"] });
    const run = await ended((await triggerBoostRun(ctx, boost.id)).id);
    expect(run.summary).toMatchObject({ total_calls: 4, cache_hits: 4, pops: { CDG: 4 } });
  });

  it("keep a finished run's figures: the list shows what its batches sum to, without summing them again", async () => {
    const { site, sitemapId } = await siteWithSitemap("kept.test", { pages: 3, headers: { "cf-cache-status": "MISS", "cf-ray": "8f1b2c3d4e5f6a7b-FRA" } });
    const boost = await createBoost(ctx, site.id, { name: "Kept", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr", "de"] });
    const run = await ended((await triggerBoostRun(ctx, boost.id)).id);
    const [row] = await handle.db.select({ summary: runs.summary }).from(runs).where(eq(runs.id, run.id));
    expect(row!.summary).toEqual((await summariseRuns(handle.db, [run.id])).get(run.id));
    expect(row!.summary).toMatchObject({ total_calls: 6, cache_misses: 6, pops: { FRA: 6 } });
    const { data, total } = await listRuns(ctx, { boostId: boost.id }, { limit: 20, offset: 0 });
    expect(total).toBe(1);
    expect(data[0]!.summary).toEqual(run.summary);
    expect(await listRuns(ctx, { boostId: boost.id }, { limit: 20, offset: 5 })).toEqual({ data: [], total: 1 });
  });

  it("pause the boost when most calls fail, unless ignore_errors", async () => {
    const { site, sitemapId } = await siteWithSitemap("failing.test", { pages: 40, status: 500 });
    const boost = await createBoost(ctx, site.id, { name: "Failing", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"], schedule: "0 * * * *" });
    const run = await ended((await triggerBoostRun(ctx, boost.id)).id);
    expect(run.status).toBe("paused");
    expect(run.status_message).toMatch(/^Paused: \d+ of the last \d+ calls failed/);
    expect(run.summary.total_calls).toBeLessThan(40);
    expect(run.summary.total_calls).toBeGreaterThanOrEqual(20);
    expect((await getBoost(ctx, boost.id)).status).toBe("paused");
    // A paused boost's schedule does not fire.
    await handle.db
      .update(boosts)
      .set({ nextRunAt: new Date(Date.now() - 60_000) })
      .where(eq(boosts.id, boost.id));
    expect((await startDueBoosts(handle.db)).started).toEqual([]);

    const tolerant = await createBoost(ctx, site.id, { name: "Tolerant", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"], ignore_errors: true });
    const full = await ended((await triggerBoostRun(ctx, tolerant.id)).id);
    expect(full.status).toBe("failed");
    expect(full.summary).toMatchObject({ total_calls: 40, failed_calls: 40 });
  });

  it("stop at the call limit, and at 10 URLs on a site that is not validated", async () => {
    const limited = await siteWithSitemap("limit.test", { pages: 30 });
    const boost = await createBoost(ctx, limited.site.id, { name: "Limit", source_type: "sitemap", sitemap_ids: [limited.sitemapId], region: ["fr", "de"], call_limit: 7 });
    expect((await ended((await triggerBoostRun(ctx, boost.id)).id)).summary.total_calls).toBe(7);

    const unvalidated = await siteWithSitemap("unvalidated.test", { pages: 30 }, false);
    const capped = await createBoost(ctx, unvalidated.site.id, { name: "Cap", source_type: "sitemap", sitemap_ids: [unvalidated.sitemapId], region: ["fr"] });
    const run = await ended((await triggerBoostRun(ctx, capped.id)).id);
    expect(run.summary.total_calls).toBe(10);
    expect(run.status_message).toMatch(/not validated/);
  });

  it("on a site that is not validated: at most 100 calls a run, whatever the variations, and 24 runs in 24 hours", async () => {
    const { site, sitemapId } = await siteWithSitemap("amplify.test", { pages: 30 }, false);
    const boost = await createBoost(ctx, site.id, {
      name: "Amplify",
      source_type: "sitemap",
      sitemap_ids: [sitemapId],
      region: ["fr", "de", "es", "gb", "us", "eu", "as"],
      variations: { user_agents: ["mobile", "desktop", "bot", "ai_crawler"], languages: Array.from({ length: 20 }, (_, i) => `l${String.fromCharCode(97 + i)}-FR`) },
      schedule: "* * * * *",
    });
    expect((await getBoost(ctx, boost.id)).siteValidated).toBe(false);
    const first = await triggerBoostRun(ctx, boost.id);
    expect(first.siteValidated).toBe(false);
    const run = await ended(first.id, 60_000);
    expect(run.summary.total_calls).toBe(100);
    expect(seen.get("amplify.test")).toHaveLength(100);
    expect(run.status_message).toMatch(/only its first 10 URLs are warmed; the site is not validated, so a run makes at most 100 calls \(5600 without the cap\)/);

    // 23 more runs in the last 24 hours make 24: the 25th is refused, and the schedule skips its tick.
    await handle.db.insert(runs).values(Array.from({ length: 23 }, () => ({ kind: "boost" as const, siteId: site.id, accountId: ctx.accountId, boostId: boost.id, regions: ["fr"], status: "done" })));
    const refused = await triggerBoostRun(ctx, boost.id).catch((error) => error);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect(refused.message).toMatch(/at most 24 boost runs in 24 hours/);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    await handle.db
      .update(boosts)
      .set({ nextRunAt: new Date(Date.now() - 60_000) })
      .where(eq(boosts.id, boost.id));
    expect((await startDueBoosts(handle.db)).started).toEqual([]);
    expect((await getBoost(ctx, boost.id)).nextRunAt!.getTime()).toBeGreaterThan(Date.now());
  }, 90_000);

  it("start on the schedule's tick", async () => {
    const { site, sitemapId } = await siteWithSitemap("scheduled.test", { pages: 2 });
    const boost = await createBoost(ctx, site.id, { name: "Tick", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"], schedule: "*/5 * * * *" });
    await handle.db
      .update(boosts)
      .set({ nextRunAt: new Date(Date.now() - 1000) })
      .where(eq(boosts.id, boost.id));
    const { started } = await startDueBoosts(handle.db);
    expect(started).toHaveLength(1);
    const run = await ended(started[0]!);
    expect(run.summary.total_calls).toBe(2);
    expect(run.triggered_by).toEqual({ kind: "schedule", label: "*/5 * * * *" });
  });
});

describe("warm runs", () => {
  it("warm the submitted URLs and end done", async () => {
    behaviours.set("warm.test", { pages: 0, headers: { "x-vercel-cache": "HIT", "x-vercel-id": "cdg1::iad1::abc" } });
    const site = await createSite(ctx, { domain: "warm.test" });
    await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
    const { run } = await queueWarm(ctx, site.id, { urls: ["http://warm.test/a", "http://warm.test/b"], region: ["fr", "gb"] });
    const done = await ended(run.id);
    expect(done).toMatchObject({ status: "done", summary: { total_calls: 4, cache_hits: 4, pops: { CDG: 4 } } });
    expect(seen.get("warm.test")).toHaveLength(4);
  });
});

describe("per-site concurrency", () => {
  it("holds for the site, not for each run: a boost run and a warm at once share PREHEAT_SITE_CONCURRENCY", async () => {
    process.env.PREHEAT_SITE_CONCURRENCY = "2";
    try {
      const { site, sitemapId } = await siteWithSitemap("shared.test", { pages: 30, delayMs: 40 });
      const boost = await createBoost(ctx, site.id, { name: "Shared", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"] });
      const boostRun = await triggerBoostRun(ctx, boost.id);
      const { run: warmRun } = await queueWarm(ctx, site.id, { urls: Array.from({ length: 30 }, (_, i) => `http://shared.test/w/${i}`), region: ["fr"] });
      expect((await ended(boostRun.id)).summary.total_calls).toBe(30);
      expect((await ended(warmRun.id)).summary.total_calls).toBe(30);
      expect(seen.get("shared.test")).toHaveLength(60);
      expect(mostOpen.get("shared.test")).toBe(2);
    } finally {
      delete process.env.PREHEAT_SITE_CONCURRENCY;
    }
  });
});

describe("one worker, every tenant", () => {
  it("a 10-URL warm of another account finishes in under 5 s while a 100,000-call run warms its site", async () => {
    process.env.PREHEAT_MONTHLY_CALL_QUOTA = "1000000";
    try {
      // The big run's account is its own: its 100,000 calls count against its quota, not the other tests'.
      const bigTenant = { db: handle.db, accountId: (await findOrCreateUser(handle.db, "big-tenant@example.com")).user.accountId };
      behaviours.set("big.test", { pages: 0, delayMs: 50 });
      const big = await createSite(bigTenant, { domain: "big.test" });
      await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, big.id));
      const languages = ["fr-FR", "en-US", "de-DE", "es-ES", "it-IT"];
      const { run: bigRun } = await queueWarm(bigTenant, big.id, {
        urls: Array.from({ length: 5000 }, (_, i) => `http://big.test/p/${i}`),
        region: ["fr"],
        variations: { user_agents: ["mobile", "desktop", "bot", "ai_crawler"], languages },
      });
      expect(bigRun.plannedCalls).toBe(100_000);
      // The big run is warming before the small one is queued.
      for (let i = 0; i < 100 && (seen.get("big.test")?.length ?? 0) < 20; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      const { user } = await findOrCreateUser(handle.db, "other-tenant@example.com");
      const other = { db: handle.db, accountId: user.accountId };
      behaviours.set("small.test", { pages: 0 });
      const small = await createSite(other, { domain: "small.test" });
      await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, small.id));
      const started = Date.now();
      const { run } = await queueWarm(other, small.id, { urls: Array.from({ length: 10 }, (_, i) => `http://small.test/${i}`), region: ["fr"] });
      let done = await getRun(other, run.id);
      while (done.status !== "done" && Date.now() - started < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        done = await getRun(other, run.id);
      }
      expect(done.summary.total_calls).toBe(10);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await getRun(bigTenant, bigRun.id)).status).toBe("running");
      await handle.db.delete(sites).where(eq(sites.id, big.id)); // the big run stops with its site
    } finally {
      delete process.env.PREHEAT_MONTHLY_CALL_QUOTA;
    }
  }, 60_000);
});

describe("a site's own pace", () => {
  it("max_concurrency bounds the site across its runs, and max_requests_per_second spaces the calls", async () => {
    const { site, sitemapId } = await siteWithSitemap("paced.test", { pages: 24, delayMs: 30 });
    await updateSite(ctx, site.id, { max_concurrency: 3 });
    const boost = await createBoost(ctx, site.id, { name: "Paced", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"] });
    const boostRun = await triggerBoostRun(ctx, boost.id);
    const { run: warmRun } = await queueWarm(ctx, site.id, { urls: Array.from({ length: 24 }, (_, i) => `http://paced.test/w/${i}`), region: ["fr"] });
    expect((await ended(boostRun.id)).summary.total_calls).toBe(24);
    expect((await ended(warmRun.id)).summary.total_calls).toBe(24);
    expect(mostOpen.get("paced.test")).toBe(3);

    const { site: rated } = await siteWithSitemap("rated.test", { pages: 0 });
    await updateSite(ctx, rated.id, { max_requests_per_second: 20 });
    const { run } = await queueWarm(ctx, rated.id, { urls: Array.from({ length: 21 }, (_, i) => `http://rated.test/${i}`), region: ["fr"] });
    const done = await ended(run.id);
    const seconds = (done.finished_at && done.started_at ? Date.parse(done.finished_at) - Date.parse(done.started_at) : 0) / 1000;
    expect(done.summary.total_calls).toBe(21);
    expect(seconds).toBeGreaterThanOrEqual(0.95); // 21 starts at 20 a second: 1 s at least
  });

  it("a max_concurrency lowered while the site's run warms holds from the next renewal of the worker's grants (about a second)", async () => {
    const { site } = await siteWithSitemap("lowered.test", { pages: 0, delayMs: 100 });
    await updateSite(ctx, site.id, { max_concurrency: 4 });
    const { run } = await queueWarm(ctx, site.id, { urls: Array.from({ length: 80 }, (_, i) => `http://lowered.test/${i}`), region: ["fr"] });
    while ((seen.get("lowered.test")?.length ?? 0) < 8) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(mostOpen.get("lowered.test")).toBe(4);
    await updateSite(ctx, site.id, { max_concurrency: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a renewal, then the calls sent before it are back
    mostOpen.set("lowered.test", open.get("lowered.test") ?? 0);
    expect((await ended(run.id, 30_000)).summary.total_calls).toBe(80);
    expect(mostOpen.get("lowered.test")).toBe(1);
  }, 40_000);

  it("slows down on its own when the site does, and the run says when and why", async () => {
    // 60 quick answers, then the site takes 20 times as long.
    const { site } = await siteWithSitemap("slowing.test", { pages: 0, delayMs: 10, slowAfter: { calls: 60, delayMs: 200 } });
    const { run } = await queueWarm(ctx, site.id, { urls: Array.from({ length: 160 }, (_, i) => `http://slowing.test/${i}`), region: ["fr"] });
    const done = await ended(run.id, 60_000);
    expect(done.summary.total_calls).toBe(160);
    expect(done.slowdowns.length).toBeGreaterThanOrEqual(1);
    expect(done.slowdowns[0]).toMatchObject({
      concurrency: 2,
      reason: expect.stringMatching(/median response time of the last 50 calls \(\d+ ms\) is over 3 × that of the first 50/),
      at: expect.any(String),
    });
  }, 60_000);
});

describe("regions", () => {
  it("send a region's calls through its proxy, PREHEAT_REGION_PROXY_<CODE>", async () => {
    // A CONNECT proxy that tunnels every request to the local origin, noting each target.
    const proxy = await startConnectProxy(world.port);
    const { tunnels } = proxy;
    process.env.PREHEAT_REGION_PROXY_DE = proxy.uri;
    try {
      behaviours.set("proxied.test", { pages: 0 });
      const site = await createSite(ctx, { domain: "proxied.test" });
      await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
      const { run } = await queueWarm(ctx, site.id, { urls: ["http://proxied.test/a", "http://proxied.test/b"], region: ["fr", "de"] });
      const done = await ended(run.id);
      expect(done.summary).toMatchObject({ total_calls: 4, successful_calls: 4 });
      expect(seen.get("proxied.test")).toHaveLength(4);
      expect(tunnels.length).toBeGreaterThanOrEqual(1);
      expect(tunnels.every((t) => t === "proxied.test:80")).toBe(true);

      // A redirect to a loopback address is refused before the proxy is asked to go there.
      behaviours.set("bouncing.test", { pages: 0, status: 302, headers: { location: "http://127.0.0.1:9/admin" } });
      const bouncing = await createSite(ctx, { domain: "bouncing.test" });
      await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, bouncing.id));
      const { run: bounced } = await queueWarm(ctx, bouncing.id, { urls: ["http://bouncing.test/"], region: ["de"] });
      const refused = await ended(bounced.id);
      expect(refused.summary).toMatchObject({ total_calls: 1, failed_calls: 1 });
      expect(refused.failure_samples[0]?.error).toMatch(/refused to connect: 127\.0\.0\.1 is in the loopback range/);
      expect(tunnels).not.toContain("127.0.0.1:9");
    } finally {
      delete process.env.PREHEAT_REGION_PROXY_DE;
      await proxy.stop();
    }
  });
});

describe("report e-mails", () => {
  it("reach Resend once per ended boost run, with the figures", async () => {
    const received: { auth: string; body: { from: string; to: string | string[]; subject: string; html: string } }[] = [];
    const resend = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (chunk) => (raw += chunk));
      req.on("end", () => {
        received.push({ auth: String(req.headers.authorization), body: JSON.parse(raw) });
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `email-${received.length}` }));
      });
    });
    await new Promise<void>((resolve) => resend.listen(0, "127.0.0.1", resolve));
    Object.assign(process.env, { RESEND_API_KEY: "re_test", RESEND_BASE_URL: `http://127.0.0.1:${(resend.address() as AddressInfo).port}`, EMAIL_FROM: "Preheat <reports@preheat.test>" });
    try {
      const { site, sitemapId } = await siteWithSitemap("report.test", { pages: 2, headers: { "cf-cache-status": "HIT", "cf-ray": "1-FRA" } });
      const boost = await createBoost(ctx, site.id, { name: "Reported", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"] });
      const run = await ended((await triggerBoostRun(ctx, boost.id)).id);
      const deadline = Date.now() + 15_000;
      while (!received.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      await reportRunEnd(handle.db, run.id); // a second end signal must not send a second report
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(received).toHaveLength(1);
      const [email] = received;
      expect(email!.auth).toBe("Bearer re_test");
      expect(email!.body).toMatchObject({ from: "Preheat <reports@preheat.test>", to: "runs@example.com" });
      expect(email!.body.subject).toBe('Boost "Reported" on report.test: done — 100% success, 100% cache hits');
      expect(email!.body.html).toContain("FRA");
      expect(email!.body.html).toContain(`/runs/${run.id}`);
      const [row] = await handle.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.dedupeKey, `run-report:${run.id}`));
      expect(row).toMatchObject({ status: "sent", providerId: "email-1", attempts: 1 });
    } finally {
      for (const name of ["RESEND_API_KEY", "RESEND_BASE_URL", "EMAIL_FROM"]) delete process.env[name];
      await new Promise((resolve) => resend.close(resolve));
    }
  });

  it("stay in the outbox without RESEND_API_KEY, and are not sent for boosts that opted out", async () => {
    const { site, sitemapId } = await siteWithSitemap("outbox.test", { pages: 1 });
    const boost = await createBoost(ctx, site.id, { name: "Outboxed", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"] });
    const run = await ended((await triggerBoostRun(ctx, boost.id)).id);
    await reportRunEnd(handle.db, run.id);
    const [row] = await handle.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `run-report:${run.id}`));
    expect(row).toMatchObject({ status: "outbox", toAddress: "runs@example.com" });
    expect(row!.text).not.toContain("Pages fresh, last 7 days");
    const quiet = await createBoost(ctx, site.id, { name: "Quiet", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"], report_email_enabled: false });
    const quietRun = await ended((await triggerBoostRun(ctx, quiet.id)).id);
    await reportRunEnd(handle.db, quietRun.id);
    expect(
      await handle.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.dedupeKey, `run-report:${quietRun.id}`)),
    ).toEqual([]);
  });

  it("of a keep-warm boost say the week's share of the site's pages fresh", async () => {
    const { site, sitemapId } = await siteWithSitemap("fresh-report.test", { pages: 1, headers: { "cache-control": "public, s-maxage=7200" } });
    const boost = await createBoost(ctx, site.id, { name: "Kept", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"], keep_warm: true });
    // The week's hours end before this one: an hour-old answer, fresh for two hours, makes the last hour fresh.
    const hourAgo = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 1_800_000);
    await recordFreshness(
      handle.db,
      { readings: [{ siteId: site.id, region: "fr", callKey: "http://fresh-report.test/ desktop", freshUntil: new Date(hourAgo.getTime() + 7_200_000) }], counts: [] },
      hourAgo,
    );
    const run = await ended((await triggerBoostRun(ctx, boost.id)).id);
    await reportRunEnd(handle.db, run.id);
    const [row] = await handle.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `run-report:${run.id}`));
    expect(row!.props).toMatchObject({ weekFreshShare: 1 });
    expect(row!.text).toContain("Pages fresh, last 7 days: 100 %");
  });
});
