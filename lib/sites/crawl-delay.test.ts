import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepWarmEntries, sites } from "@/drizzle/schema";
import { createBoost } from "@/lib/boosts/service";
import { triggerBoostRun } from "@/lib/boosts/trigger";
import { warmDueEntries } from "@/lib/runs/keep-warm";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { runEnded } from "@/lib/testing/run-end";
import { crawlDelayOf } from "./crawl-delay";
import { sitePace } from "./pace";
import { createSite, getSite, updateSite } from "./service";

const robots = (text: string) => crawlDelayOf("https://shop.test/robots.txt", text);

describe("the Crawl-delay a robots.txt asks of Preheat", () => {
  it("is read from Preheat's group, else from the group for every crawler, capped at 60 s", () => {
    expect(robots("User-agent: *\nCrawl-delay: 5\n")).toBe(5);
    expect(robots("User-agent: Preheat\nCrawl-delay: 2.5\n\nUser-agent: *\nCrawl-delay: 10\n")).toBe(2.5);
    expect(robots("User-agent: Googlebot\nCrawl-delay: 10\n")).toBeNull();
    expect(robots("User-agent: *\nCrawl-delay: 3600\n")).toBe(60);
    expect(robots("User-agent: *\nCrawl-delay: soon\n")).toBeNull();
    expect(robots("<html>not a robots.txt</html>")).toBeNull();
  });

  it("paces a site without a pace of its own; a validated owner's pace overrides it, a site not validated keeps the slower", () => {
    expect(sitePace({ maxRequestsPerSecond: null, crawlDelaySeconds: 2, validated: false })).toBe(0.5);
    expect(sitePace({ maxRequestsPerSecond: 5, crawlDelaySeconds: 2, validated: true })).toBe(5);
    expect(sitePace({ maxRequestsPerSecond: 5, crawlDelaySeconds: 2, validated: false })).toBe(0.5);
    expect(sitePace({ maxRequestsPerSecond: 0.1, crawlDelaySeconds: 2, validated: false })).toBe(0.1);
    expect(sitePace({ maxRequestsPerSecond: null, crawlDelaySeconds: null, validated: true })).toBeNull();
  });
});

describe("a keep-warm boost's run on a site whose robots.txt asks a Crawl-delay", () => {
  const asked: { path: string; at: number }[] = [];
  let world: LocalWorld;
  beforeAll(async () => {
    world = await startLocalWorld(
      (req, res) => {
        if (req.url === "/robots.txt") return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: Preheat\nCrawl-delay: 1\n");
        if (req.url === "/urls.csv") return void res.writeHead(200, { "content-type": "text/csv" }).end("url\nhttp://slow.test/a\nhttp://slow.test/b\nhttp://slow.test/c\n");
        asked.push({ path: req.url ?? "", at: Date.now() });
        res.writeHead(200, { "content-type": "text/html", "cache-control": "public, s-maxage=60" }).end("<p>page</p>");
      },
      { email: "crawl-delay@example.com", work: true },
    );
  }, 60_000);
  afterAll(() => world?.stop());

  it("sends its calls one a second, and shows the delay on the site", async () => {
    const { ctx, handle } = world;
    const site = await createSite(ctx, { domain: "slow.test" });
    await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
    await updateSite(ctx, site.id, { max_concurrency: 4 });
    // Keep-warm comes back all day: its runs read the robots.txt (a schedule far ahead: this run is the only one).
    const boost = await createBoost(ctx, site.id, { name: "Polite", source_type: "csv", source_url: "http://slow.test/urls.csv", region: ["fr"], keep_warm: true, schedule: "@yearly" });
    expect((await runEnded(ctx, (await triggerBoostRun(ctx, boost.id)).id)).status).toBe("done");
    expect(asked.map((call) => call.path)).toEqual(["/a", "/b", "/c"]);
    for (let i = 1; i < asked.length; i++) expect(asked[i]!.at - asked[i - 1]!.at, `call ${i}`).toBeGreaterThanOrEqual(900);
    expect((await getSite(ctx, site.id)).crawlDelaySeconds).toBe(1);

    // A day later, the first re-warm of a keep-warm run's window has the robots.txt read again, by a job of its own.
    await handle.db
      .update(sites)
      .set({ robotsReadAt: new Date(Date.now() - 25 * 3600_000), crawlDelaySeconds: null })
      .where(eq(sites.id, site.id));
    await handle.db.update(keepWarmEntries).set({ dueAt: new Date() }).where(eq(keepWarmEntries.boostId, boost.id));
    await warmDueEntries(handle.db);
    const deadline = Date.now() + 10_000;
    while ((await getSite(ctx, site.id)).crawlDelaySeconds !== 1) {
      expect(Date.now(), "the robots.txt read again").toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 30_000);
});
