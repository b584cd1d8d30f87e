import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boosts, keepWarmEntries, runBatches, runs, sitemaps, sites } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createBoost } from "@/lib/boosts/service";
import type { AccountContext } from "@/lib/context";
import { closeDatabase, getDb } from "@/lib/db";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite } from "@/lib/sites/service";
import { processSitemapFunction } from "./process-sitemap";
import { keepWarmTickFunction, scheduleTickFunction } from "./schedule-tick";

let server: http.Server;
let ctx: AccountContext;
let dataDir: string;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/xml" }).end(`<urlset><url><loc>http://inngest.test/a</loc></url><url><loc>http://inngest.test/b</loc></url></urlset>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.PREHEAT_CONNECT_TO = `:80:127.0.0.1:${(server.address() as AddressInfo).port}`;
  delete process.env.DATABASE_URL;
  dataDir = mkdtempSync(path.join(tmpdir(), "preheat-inngest-"));
  process.env.PREHEAT_DATA_DIR = dataDir;
  const db = await getDb();
  const { user } = await findOrCreateUser(db, "inngest@example.com");
  ctx = { db, accountId: user.accountId };
}, 60_000);

afterAll(async () => {
  await closeDatabase();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
  delete process.env.PREHEAT_CONNECT_TO;
  delete process.env.PREHEAT_DATA_DIR;
});

describe("Inngest functions", () => {
  it("process-sitemap runs the sitemap handler in one step", async () => {
    const site = await createSite(ctx, { domain: "inngest.test" });
    const sitemap = await addSitemap(ctx, site.id, { url: "http://inngest.test/sitemap.xml" });
    const engine = new InngestTestEngine({ function: processSitemapFunction });
    const { result, ctx: run } = await engine.execute({
      events: [{ name: "preheat/sitemap.process", data: { sitemapId: sitemap.id, siteId: site.id } }],
    });
    expect(run.step.run).toHaveBeenCalledWith("process-sitemap", expect.any(Function));
    expect(result).toMatchObject({ status: "done" });
    const [row] = await ctx.db.select().from(sitemaps).where(eq(sitemaps.id, sitemap.id));
    expect(row).toMatchObject({ status: "done", urlCount: 2 });
  });

  it("process-sitemap declares per-site concurrency and retries", () => {
    const config = processSitemapFunction.opts as { concurrency: { key: string; limit: number }[]; retries: number };
    expect(config.concurrency).toEqual([{ key: "event.data.siteId", limit: 1 }]);
    expect(config.retries).toBe(4);
  });

  it("schedule-tick starts a due scheduled boost once", async () => {
    const site = await createSite(ctx, { domain: "tick.test" });
    const sitemap = await addSitemap(ctx, site.id, { url: "http://tick.test/sitemap.xml" });
    const boost = await createBoost(ctx, site.id, { name: "Hourly", source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr"], schedule: "0 * * * *" });
    await ctx.db
      .update(boosts)
      .set({ nextRunAt: new Date(Date.now() - 3 * 3_600_000) })
      .where(eq(boosts.id, boost.id));
    const engine = new InngestTestEngine({ function: scheduleTickFunction });
    const { result } = await engine.execute();
    expect(result).toMatchObject({ started: [expect.any(Number)] });
    const created = await ctx.db.select().from(runs).where(eq(runs.boostId, boost.id));
    expect(created).toHaveLength(1);
    const [after] = await ctx.db.select().from(boosts).where(eq(boosts.id, boost.id));
    expect(after!.nextRunAt!.getTime()).toBeGreaterThan(Date.now());
    expect(after!.status).toBe("running");
    // A second tick while the run is pending starts nothing more.
    const again = await new InngestTestEngine({ function: scheduleTickFunction }).execute();
    expect(again.result).toMatchObject({ started: [] });
  });

  it("keep-warm-tick adds the due entries of a keep-warm boost to its keep-warm run, in one step", async () => {
    const site = await createSite(ctx, { domain: "keepwarm-tick.test" });
    await ctx.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
    const sitemap = await addSitemap(ctx, site.id, { url: "http://keepwarm-tick.test/sitemap.xml" });
    const boost = await createBoost(ctx, site.id, { name: "Warm", source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr"], keep_warm: true });
    const call = { url: "http://keepwarm-tick.test/a", user_agent: "desktop", language: null };
    await ctx.db
      .insert(keepWarmEntries)
      .values({ boostId: boost.id, siteId: site.id, accountId: ctx.accountId, region: "fr", callKey: `${call.url} desktop|||`, call, dueAt: new Date(Date.now() - 1000) });
    const engine = new InngestTestEngine({ function: keepWarmTickFunction });
    const { result, ctx: run } = await engine.execute();
    expect(run.step.run).toHaveBeenCalledWith("warm-due-entries", expect.any(Function));
    expect(result).toMatchObject({ added: 1 });
    const [keepWarm] = await ctx.db.select().from(runs).where(eq(runs.boostId, boost.id));
    expect(keepWarm).toMatchObject({ trigger: "keep_warm", status: "running", plannedCalls: 1 });
    const batches = await ctx.db.select().from(runBatches).where(eq(runBatches.runId, keepWarm!.id));
    expect(batches.map((batch) => batch.calls)).toEqual([[call]]);
  }, 30_000);
});
