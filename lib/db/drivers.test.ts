import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createBoost } from "@/lib/boosts/service";
import type { AccountContext } from "@/lib/context";
import { ConflictError } from "@/lib/core/errors";
import { triggerBoostRun } from "@/lib/boosts/trigger";
import { getRun, listRuns } from "@/lib/runs/service";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite } from "@/lib/sites/service";
import { postgresBinDir, startPostgresServer } from "@/lib/testing/postgres-server";
import { type DatabaseHandle, openDatabase } from "./index";

/** The same domain verbs, the same migrations, on both drivers. */
async function exerciseDomain(handle: DatabaseHandle) {
  const { user } = await findOrCreateUser(handle.db, `driver-${Math.random().toString(36).slice(2)}@example.com`);
  const ctx: AccountContext = { db: handle.db, accountId: user.accountId };
  const site = await createSite(ctx, { domain: "https://Shop.Example.com/" });
  await expect(createSite(ctx, { domain: "shop.example.com" })).rejects.toBeInstanceOf(ConflictError);
  const sitemap = await addSitemap(ctx, site.id, { url: "https://www.shop.example.com/sitemap.xml" });
  const boost = await createBoost(ctx, site.id, { name: "Nightly", source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr", "gb"], schedule: "0 3 * * *" });
  const [first, second] = await Promise.allSettled([triggerBoostRun(ctx, boost.id), triggerBoostRun(ctx, boost.id)]);
  const outcomes = [first, second].map((r) => r.status);
  expect(outcomes.sort()).toEqual(["fulfilled", "rejected"]);
  const rejected = [first, second].find((r) => r.status === "rejected") as PromiseRejectedResult;
  expect(rejected.reason).toBeInstanceOf(ConflictError);
  const { data } = await listRuns(ctx, { boostId: boost.id }, { limit: 20, offset: 0 });
  expect(data).toHaveLength(1);
  const run = await getRun(ctx, data[0]!.id);
  expect(run).toMatchObject({ boost_name: "Nightly", site_id: site.id, status: "pending", summary: { total_calls: 0, pops: {} } });
  expect(site.domain).toBe("shop.example.com");
}

describe("embedded PGlite", () => {
  it("applies the migrations and serves the domain", async () => {
    const previous = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    const handle = await openDatabase({ dataDir: "memory://" });
    try {
      expect(handle.kind).toBe("embedded");
      await exerciseDomain(handle);
    } finally {
      await handle.close();
      if (previous !== undefined) process.env.DATABASE_URL = previous;
    }
  });
});

const installed = Boolean(postgresBinDir());
if (!installed && process.env.CI) throw new Error("CI must install PostgreSQL (apt-get install postgresql) for the server driver tests.");

describe.skipIf(!installed)("a PostgreSQL server through DATABASE_URL", () => {
  let server: Awaited<ReturnType<typeof startPostgresServer>>;
  beforeAll(async () => {
    server = await startPostgresServer();
  }, 60_000);
  afterAll(async () => server?.stop());

  it("migrates once when several processes start together, and serves the domain", async () => {
    process.env.DATABASE_URL = server.url;
    try {
      const handles = await Promise.all([openDatabase(), openDatabase(), openDatabase()]);
      expect(handles.map((h) => h.kind)).toEqual(["postgres", "postgres", "postgres"]);
      await exerciseDomain(handles[0]!);
      // A run's figures must never wait for the JIT compiler (lib/db/index.ts): seconds for milliseconds of work.
      const [{ jit }] = (await handles[0]!.db.execute(sql`select current_setting('jit') as jit`)) as unknown as [{ jit: string }];
      expect(jit).toBe("off");
      await Promise.all(handles.map((h) => h.close()));
    } finally {
      delete process.env.DATABASE_URL;
    }
  });
});
