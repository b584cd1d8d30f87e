import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEnded } from "@/lib/testing/run-end";
import { runs, runUrlStates, sitemaps, sites } from "@/drizzle/schema";
import { estimateBoost } from "@/lib/boosts/estimate";
import { createSiteBoostBody } from "@/lib/core/boost-requests";
import { createBoost, toBoost, updateBoost } from "@/lib/boosts/service";
import { triggerBoostRun } from "@/lib/boosts/trigger";
import type { AccountContext } from "@/lib/context";
import type { DatabaseHandle } from "@/lib/db";
import { InvalidError } from "@/lib/core/errors";
import { processSitemap } from "@/lib/sitemaps/process";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite, updateSite } from "@/lib/sites/service";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";

/** A URL of a served sitemap: its path, and the <lastmod> and <priority> it is listed with. */
type Listed = { path: string; lastmod?: string; priority?: string };
type Origin = { urls: Listed[]; status: number };
const origins = new Map<string, Origin>();
/** The paths each host was asked for, in the order the requests arrived (the sitemap aside). */
const seen = new Map<string, string[]>();
let world: LocalWorld;
let handle: DatabaseHandle;
let ctx: AccountContext;

const entry = (host: string, { path, lastmod, priority }: Listed) =>
  `<url><loc>http://${host}${path}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}${priority ? `<priority>${priority}</priority>` : ""}</url>`;

beforeAll(async () => {
  process.env.PREHEAT_JOBS_POLL_SECONDS = "0.5";
  world = await startLocalWorld(
    (req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      const origin = origins.get(host) ?? { urls: [], status: 200 };
      if (req.url === "/sitemap.xml") {
        return void res.writeHead(200, { "content-type": "application/xml" }).end(`<urlset>${origin.urls.map((url) => entry(host, url)).join("")}</urlset>`);
      }
      seen.set(host, [...(seen.get(host) ?? []), req.url ?? ""]);
      res.writeHead(origin.status, { "content-type": "text/html" }).end("<html><body>page</body></html>");
    },
    { email: "order@example.com", work: true },
  );
  ({ handle, ctx } = world);
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

/** A validated site whose sitemap lists `urls`, processed, with one call at a time so that the origin sees the calls in their order. */
async function siteListing(domain: string, urls: Listed[]) {
  origins.set(domain, { urls, status: 200 });
  const site = await createSite(ctx, { domain });
  await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
  await updateSite(ctx, site.id, { max_concurrency: 1 });
  const sitemap = await addSitemap(ctx, site.id, { url: `http://${domain}/sitemap.xml` });
  // Read by the job addSitemap queued: reading it here as well would race that job, which a run's
  // planning then finds still reading, and leaves to it.
  for (;;) {
    const [row] = await handle.db.select({ status: sitemaps.status }).from(sitemaps).where(eq(sitemaps.id, sitemap.id));
    if (row?.status === "done") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { site, sitemapId: sitemap.id };
}

const ended = (runId: number, timeoutMs?: number) => runEnded(ctx, runId, timeoutMs);

/** Runs the boost to its end; answers the run and the paths the origin saw, in order. */
async function runOnce(boostId: number, host: string) {
  seen.set(host, []);
  const run = await ended((await triggerBoostRun(ctx, boostId)).id);
  return { run, paths: seen.get(host) ?? [] };
}

describe("order", () => {
  it("sitemap: as listed; lastmod: newest first, those without one last, ties as listed", async () => {
    const host = "lastmod-order.test";
    const { site, sitemapId } = await siteListing(host, [
      { path: "/old", lastmod: "2026-01-01" },
      { path: "/none-1" },
      { path: "/newest", lastmod: "2026-06-01T12:00:00Z" },
      { path: "/tie-a", lastmod: "2026-03-01" },
      { path: "/none-2" },
      { path: "/tie-b", lastmod: "2026-03-01" },
    ]);
    const listed = await createBoost(ctx, site.id, { name: "Listed", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"] });
    expect(toBoost(listed).order).toBe("sitemap");
    expect((await runOnce(listed.id, host)).paths).toEqual(["/old", "/none-1", "/newest", "/tie-a", "/none-2", "/tie-b"]);

    const newest = await createBoost(ctx, site.id, { name: "Newest", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"], order: "lastmod" });
    expect(toBoost(newest).order).toBe("lastmod");
    expect((await runOnce(newest.id, host)).paths).toEqual(["/newest", "/tie-a", "/tie-b", "/old", "/none-1", "/none-2"]);
  });

  it("lastmod: a call limit keeps the newest", async () => {
    const host = "lastmod-limit.test";
    const { site, sitemapId } = await siteListing(host, [
      { path: "/a", lastmod: "2026-01-01" },
      { path: "/b", lastmod: "2026-05-01" },
      { path: "/c", lastmod: "2026-03-01" },
    ]);
    const boost = await createBoost(ctx, site.id, { name: "Two newest", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"], order: "lastmod", call_limit: 2 });
    expect((await runOnce(boost.id, host)).paths).toEqual(["/b", "/c"]);
  });

  it("priority: highest first, 0.5 without one, ties as listed", async () => {
    const host = "priority-order.test";
    const { site, sitemapId } = await siteListing(host, [
      { path: "/low", priority: "0.1" },
      { path: "/default" },
      { path: "/top", priority: "1.0" },
      { path: "/half", priority: "0.5" },
      { path: "/high", priority: "0.8" },
      { path: "/invalid", priority: "7" },
    ]);
    const boost = await createBoost(ctx, site.id, { name: "Priority", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"], order: "priority" });
    expect((await runOnce(boost.id, host)).paths).toEqual(["/top", "/high", "/default", "/half", "/invalid", "/low"]);
  });

  it("is read from the sitemap as it is when the run starts", async () => {
    const host = "priority-fresh.test";
    const { site, sitemapId } = await siteListing(host, [
      { path: "/a", priority: "0.9" },
      { path: "/b", priority: "0.1" },
    ]);
    const boost = await createBoost(ctx, site.id, { name: "Fresh", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"], order: "priority" });
    // Read a moment ago: a boost warming by priority reads it again all the same.
    origins.get(host)!.urls = [
      { path: "/a", priority: "0.1" },
      { path: "/b", priority: "0.9" },
    ];
    expect((await runOnce(boost.id, host)).paths).toEqual(["/b", "/a"]);
  });
});

describe("only_changed", () => {
  it("warms every URL first, then only the new ones and those whose lastmod changed; the estimate and the run say how many were left out", async () => {
    const host = "changed.test";
    const origin: Listed[] = [{ path: "/a", lastmod: "2026-01-01" }, { path: "/b", lastmod: "2026-01-01" }, { path: "/c" }, { path: "/d", lastmod: "2026-01-01" }];
    const { site, sitemapId } = await siteListing(host, origin);
    const boost = await createBoost(ctx, site.id, { name: "Changed", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"], only_changed: true });
    expect(toBoost(boost)).toMatchObject({ order: "sitemap", only_changed: true });
    expect(await estimateBoost(ctx, boost.id)).toMatchObject({ urls: 4, unchanged_urls: 0 });

    const first = await runOnce(boost.id, host);
    expect(first.paths).toEqual(["/a", "/b", "/c", "/d"]);
    expect(first.run.status_message).toMatch(/^Every URL counts as changed: the boost has no completed run to compare with yet\./);

    origins.get(host)!.urls = [
      { path: "/a", lastmod: "2026-01-01" },
      { path: "/b", lastmod: "2026-02-01" }, // changed
      { path: "/c" },
      { path: "/d" }, // its lastmod is gone: a change too
      { path: "/e", lastmod: "2025-01-01" }, // new
    ];
    await processSitemap(handle.db, sitemapId);
    expect(await estimateBoost(ctx, boost.id)).toMatchObject({ urls: 3, calls: 3, unchanged_urls: 2, notes: [`2 URLs left out as unchanged since run ${first.run.id}`] });

    const second = await runOnce(boost.id, host);
    expect(second.paths).toEqual(["/b", "/d", "/e"]);
    expect(second.run.status).toBe("done");
    expect(second.run.status_message).toMatch(new RegExp(`^2 URLs left out as unchanged since run ${first.run.id}\\.`));

    const third = await runOnce(boost.id, host);
    expect(third.paths).toEqual([]);
    expect(third.run).toMatchObject({ status: "done", status_message: `Nothing to warm: 5 URLs left out as unchanged since run ${second.run.id}.` });
    expect(await estimateBoost(ctx, boost.id)).toMatchObject({ urls: 0, unchanged_urls: 5 });

    // The boost keeps two snapshots at most: its baseline's and the last planned run's.
    const runIds = (await handle.db.select({ id: runs.id }).from(runs).where(eq(runs.boostId, boost.id))).map((r) => r.id);
    const kept = await handle.db.selectDistinct({ runId: runUrlStates.runId }).from(runUrlStates).where(inArray(runUrlStates.runId, runIds));
    expect(kept.map((k) => k.runId).sort()).toEqual([second.run.id, third.run.id].sort());
  });

  it("has a baseline as soon as it is turned on: every run keeps what it found", async () => {
    const host = "turned-on.test";
    const { site, sitemapId } = await siteListing(host, [
      { path: "/a", lastmod: "2026-01-01" },
      { path: "/b", lastmod: "2026-01-01" },
    ]);
    const boost = await createBoost(ctx, site.id, { name: "Later", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"] });
    const first = await runOnce(boost.id, host);
    expect(first.paths).toEqual(["/a", "/b"]);
    await updateBoost(ctx, boost.id, { only_changed: true, order: "lastmod" });
    origins.get(host)!.urls[0]!.lastmod = "2026-04-01";
    const second = await runOnce(boost.id, host);
    expect(second.paths).toEqual(["/a"]);
    expect(second.run.status_message).toMatch(new RegExp(`^1 URL left out as unchanged since run ${first.run.id}\\.`));
  });

  it("never compares with a failed or paused run: the URLs it saw count as changed until a run is done", async () => {
    const host = "not-a-baseline.test";
    const urls = Array.from({ length: 40 }, (_, i) => ({ path: `/p/${i}`, lastmod: "2026-01-01" }));
    const { site, sitemapId } = await siteListing(host, urls);
    const boost = await createBoost(ctx, site.id, { name: "Baseline", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"], only_changed: true });
    const done = await runOnce(boost.id, host);
    expect(done.paths).toHaveLength(40);

    // Every URL changes, and the site fails every call: the run pauses the boost.
    for (const url of urls) url.lastmod = "2026-02-01";
    origins.get(host)!.status = 500;
    const paused = await runOnce(boost.id, host);
    expect(paused.run.status).toBe("paused");
    expect(paused.paths.length).toBeLessThan(40);

    // With ignore_errors, the next run goes on to fail every call: it ends failed.
    await updateBoost(ctx, boost.id, { ignore_errors: true });
    const failed = await runOnce(boost.id, host);
    expect(failed.run.status).toBe("failed");
    expect(failed.run.status_message).toMatch(new RegExp(`^0 URLs left out as unchanged since run ${done.run.id}\\.`));

    origins.get(host)!.status = 200;
    const again = await runOnce(boost.id, host);
    expect(again.run.status).toBe("done");
    expect(again.paths).toHaveLength(40);
    expect(again.run.status_message).toMatch(new RegExp(`^0 URLs left out as unchanged since run ${done.run.id}\\.`));
  });
});

describe("a CSV boost", () => {
  const csv = { name: "CSV", source_type: "csv", source_url: "https://csv.test/urls.csv", region: ["fr"] };

  it("keeps the file's order, or most visited first, and takes no only_changed, with a sentence saying why", () => {
    expect(createSiteBoostBody.safeParse({ ...csv, order: "sitemap", only_changed: false }).success).toBe(true);
    expect(createSiteBoostBody.safeParse({ ...csv, url_order: "traffic" }).success).toBe(true);
    const refused = createSiteBoostBody.safeParse({ ...csv, order: "lastmod", only_changed: true });
    expect(refused.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`)).toEqual([
      "order: must be sitemap or traffic for a CSV boost: a CSV file gives no priority or lastmod",
      "only_changed: applies to sitemap boosts only: a CSV file gives no lastmod to compare",
    ]);
  });

  it("refuses them on update too", async () => {
    const site = await createSite(ctx, { domain: "csv.test" });
    const boost = await createBoost(ctx, site.id, createSiteBoostBody.parse(csv));
    expect(toBoost(boost)).toMatchObject({ order: "sitemap", only_changed: false });
    await expect(updateBoost(ctx, boost.id, { order: "priority" })).rejects.toThrow(InvalidError);
    await expect(updateBoost(ctx, boost.id, { only_changed: true })).rejects.toThrow(/only_changed: applies to sitemap boosts only/);
    expect(toBoost(await updateBoost(ctx, boost.id, { order: "sitemap", only_changed: false }))).toMatchObject({ order: "sitemap", only_changed: false });
  });
});
