import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { sitemaps, sitemapUrls } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import type { DatabaseHandle } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite } from "@/lib/sites/service";

let handle: DatabaseHandle;
let ctx: AccountContext;
let world: LocalWorld;
const failuresLeft = new Map<string, number>();
const requests: string[] = [];

const urlset = (host: string, paths: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>http://${host}${p}</loc></url>`).join("")}</urlset>`;

beforeAll(async () => {
  process.env.PREHEAT_JOB_RETRY_DELAY_SECONDS = "1";
  process.env.PREHEAT_JOBS_POLL_SECONDS = "0.5";
  world = await startLocalWorld(
    (req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      requests.push(`${host}${req.url}`);
      const left = failuresLeft.get(host) ?? 0;
      if (left > 0) {
        failuresLeft.set(host, left - 1);
        res.writeHead(503).end("busy");
        return;
      }
      res.writeHead(200, { "content-type": "application/xml" }).end(urlset(host, ["/", "/a", "/b"]));
    },
    { email: "jobs@example.com", work: true },
  );
  ({ handle, ctx } = world);
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

async function settled(sitemapId: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await handle.db.select().from(sitemaps).where(eq(sitemaps.id, sitemapId));
    if (row && (row.status === "done" || row.status === "error")) return row;
    if (Date.now() > deadline) throw new Error(`sitemap ${sitemapId} still ${row?.status}: ${row?.statusMessage}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("the embedded driver (pg-boss on PGlite)", () => {
  it("processes a sitemap in the background once it is added", async () => {
    const site = await createSite(ctx, { domain: "one.test" });
    const sitemap = await addSitemap(ctx, site.id, { url: "http://one.test/sitemap.xml" });
    const row = await settled(sitemap.id);
    expect(row).toMatchObject({ status: "done", urlCount: 3 });
    expect(row.statusMessage).toMatch(/^3 URLs from 1 document/);
    expect(await handle.db.select().from(sitemapUrls).where(eq(sitemapUrls.sitemapId, sitemap.id))).toHaveLength(3);
  });

  it("retries a job that fails twice, then succeeds", async () => {
    failuresLeft.set("flaky.test", 2);
    const site = await createSite(ctx, { domain: "flaky.test" });
    const sitemap = await addSitemap(ctx, site.id, { url: "http://flaky.test/sitemap.xml" });
    const row = await settled(sitemap.id);
    expect(row).toMatchObject({ status: "done", urlCount: 3 });
    expect(requests.filter((r) => r === "flaky.test/sitemap.xml")).toHaveLength(3);
  });

  it("ends in error with the last reason when every attempt fails", async () => {
    failuresLeft.set("down.test", 100);
    const site = await createSite(ctx, { domain: "down.test" });
    const sitemap = await addSitemap(ctx, site.id, { url: "http://down.test/sitemap.xml" });
    const row = await settled(sitemap.id, 60_000);
    expect(row.status).toBe("error");
    expect(row.statusMessage).toBe("http://down.test/sitemap.xml answered HTTP 503.");
    expect(requests.filter((r) => r === "down.test/sitemap.xml")).toHaveLength(5);
  }, 90_000);
});

describe("the keep-warm tick on the embedded driver", () => {
  it("starts with the worker, not at the next minute's cron tick, and a stopping worker does not wait out its link", async () => {
    const own = await startLocalWorld((_req, res) => void res.writeHead(404).end(), { email: "tick@example.com", work: true });
    const active = async () => rowsOf<{ n: number }>(await own.handle.db.execute(sql`select count(*)::int as n from pgboss.job where name = 'preheat.keep_warm.tick' and state = 'active'`))[0]!.n;
    const deadline = Date.now() + 10_000;
    while ((await active()) === 0) {
      expect(Date.now(), "the keep-warm tick working").toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A link lasts ten seconds: the worker stops well before.
    const stopping = performance.now();
    await own.stop();
    expect(performance.now() - stopping).toBeLessThan(5_000);
  }, 60_000);
});
