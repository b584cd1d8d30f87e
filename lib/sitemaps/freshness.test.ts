import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { runBatches, runs, sitemaps, sites } from "@/drizzle/schema";
import { createBoost } from "@/lib/boosts/service";
import { triggerBoostRun } from "@/lib/boosts/trigger";
import type { AccountContext } from "@/lib/context";
import type { DatabaseHandle } from "@/lib/db";
import { planRun } from "@/lib/runs/plan";
import { createSite } from "@/lib/sites/service";
import { processSitemap } from "./process";
import { addSitemap, getSitemap, refreshSitemap } from "./service";

/** Each host's sitemap lists its `pages`, answered with an ETag; `down` hosts answer 503. */
const pages = new Map<string, string[]>();
const down = new Set<string>();
const requests: { host: string; status: number }[] = [];
let world: LocalWorld;
let handle: DatabaseHandle;
let ctx: AccountContext;

beforeAll(async () => {
  world = await startLocalWorld(
    (req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      const list = pages.get(host) ?? [];
      const etag = `"${Buffer.from(list.join(" ")).toString("base64url")}"`;
      let status = 200;
      if (down.has(host)) status = 503;
      else if (req.headers["if-none-match"] === etag) status = 304;
      requests.push({ host, status });
      if (status !== 200) return void res.writeHead(status).end();
      const body = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${list.map((p) => `<url><loc>http://${host}${p}</loc></url>`).join("")}</urlset>`;
      res.writeHead(200, { "content-type": "application/xml", etag }).end(body);
    },
    { email: "fresh@example.com" },
  );
  ({ handle, ctx } = world);
}, 60_000);

afterAll(async () => {
  delete process.env.PREHEAT_SITEMAP_MAX_AGE_SECONDS;
  await world?.stop();
});

async function shop(host: string, list: string[]) {
  pages.set(host, list);
  const site = await createSite(ctx, { domain: host });
  await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
  const sitemap = await addSitemap(ctx, site.id, { url: `http://${host}/sitemap.xml` });
  await processSitemap(handle.db, sitemap.id);
  const boost = await createBoost(ctx, site.id, { name: "Nightly", source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr"] });
  return { site, sitemap, boost };
}

/** Triggers the boost, plans the run, answers the URLs it would warm and its message, and ends it. */
async function nightlyRun(boostId: number) {
  const run = await triggerBoostRun(ctx, boostId);
  await planRun(handle.db, run.id);
  const batches = await handle.db.select().from(runBatches).where(eq(runBatches.runId, run.id)).orderBy(asc(runBatches.seq));
  const [row] = await handle.db.select().from(runs).where(eq(runs.id, run.id));
  await handle.db.update(runs).set({ status: "done", finishedAt: new Date() }).where(eq(runs.id, run.id));
  return { urls: batches.flatMap((b) => b.calls.map((c) => new URL(c.url).pathname)).sort(), message: row!.statusMessage };
}

describe("sitemaps read again before a run", () => {
  it("a nightly boost's next run warms the product added since, and no longer the one removed", async () => {
    const { boost } = await shop("nightly.test", ["/a", "/b"]);
    process.env.PREHEAT_SITEMAP_MAX_AGE_SECONDS = "0";
    expect((await nightlyRun(boost.id)).urls).toEqual(["/a", "/b"]);
    pages.set("nightly.test", ["/a", "/c"]);
    expect((await nightlyRun(boost.id)).urls).toEqual(["/a", "/c"]);
  });

  it("within the maximum age, a run does not read the sitemap again", async () => {
    const { boost } = await shop("recent.test", ["/a"]);
    process.env.PREHEAT_SITEMAP_MAX_AGE_SECONDS = "3600";
    pages.set("recent.test", ["/a", "/new"]);
    const before = requests.filter((r) => r.host === "recent.test").length;
    expect((await nightlyRun(boost.id)).urls).toEqual(["/a"]);
    expect(requests.filter((r) => r.host === "recent.test").length).toBe(before);
  });

  it("an unchanged sitemap costs one 304, which moves last_processed_at and not last_changed_at", async () => {
    const { site, sitemap, boost } = await shop("same.test", ["/a", "/b"]);
    const first = await getSitemap(ctx, site.id, sitemap.id);
    process.env.PREHEAT_SITEMAP_MAX_AGE_SECONDS = "0";
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = requests.length;
    expect((await nightlyRun(boost.id)).urls).toEqual(["/a", "/b"]);
    expect(requests.slice(before)).toEqual([{ host: "same.test", status: 304 }]);
    const after = await getSitemap(ctx, site.id, sitemap.id);
    expect(after.lastProcessedAt!.getTime()).toBeGreaterThan(first.lastProcessedAt!.getTime());
    expect(after.lastChangedAt).toEqual(first.lastChangedAt);
    expect(after.urlCount).toBe(2);
  });

  it("a sitemap that cannot be read leaves the run on its last good list, and the run says so", async () => {
    const { boost, site, sitemap } = await shop("flaky.test", ["/a", "/b"]);
    process.env.PREHEAT_SITEMAP_MAX_AGE_SECONDS = "0";
    down.add("flaky.test");
    const run = await nightlyRun(boost.id);
    down.delete("flaky.test");
    expect(run.urls).toEqual(["/a", "/b"]);
    expect(run.message).toMatch(/could not be read again \(.*503.*\), so its last good list .* is warmed/);
    const row = await getSitemap(ctx, site.id, sitemap.id);
    expect(row.status).toBe("error");
    expect(row.urlCount).toBe(2);
  });

  it("refresh queues a read now; one already queued is left as it is", async () => {
    const { site, sitemap } = await shop("refresh.test", ["/a"]);
    const refreshed = await refreshSitemap(ctx, site.id, sitemap.id);
    expect(refreshed.status).toBe("waiting");
    const again = await refreshSitemap(ctx, site.id, sitemap.id);
    expect(again.status).toBe("waiting");
    pages.set("refresh.test", ["/a", "/b"]);
    await processSitemap(handle.db, sitemap.id, { final: true, conditional: true });
    const [row] = await handle.db.select().from(sitemaps).where(eq(sitemaps.id, sitemap.id));
    expect(row!.urlCount).toBe(2);
    expect(row!.status).toBe("done");
  });
});
