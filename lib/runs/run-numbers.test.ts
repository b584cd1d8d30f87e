import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runs } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createBoost } from "@/lib/boosts/service";
import type { AccountContext } from "@/lib/context";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite } from "@/lib/sites/service";
import { postgresBinDir, startPostgresServer } from "@/lib/testing/postgres-server";

/** A site with two boosts on one sitemap. */
async function siteWithTwoBoosts(handle: DatabaseHandle, domain: string) {
  const { user } = await findOrCreateUser(handle.db, `numbers-${Math.random().toString(36).slice(2)}@example.com`);
  const ctx: AccountContext = { db: handle.db, accountId: user.accountId };
  const site = await createSite(ctx, { domain });
  const sitemap = await addSitemap(ctx, site.id, { url: `https://${domain}/sitemap.xml` });
  const boost = (name: string) => createBoost(ctx, site.id, { name, source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr"] });
  return { accountId: user.accountId, siteId: site.id, nightly: (await boost("Nightly")).id, weekly: (await boost("Weekly")).id };
}

type Owner = Awaited<ReturnType<typeof siteWithTwoBoosts>>;

/** Inserts a finished run as any statement would (no verb's rule stands in the way of several), answering its number. */
async function addRun(db: DatabaseHandle["db"], owner: Owner, boostId: number | null): Promise<number> {
  const [run] = await db
    .insert(runs)
    .values({ kind: boostId === null ? "warm" : "boost", siteId: owner.siteId, accountId: owner.accountId, boostId, status: "done", regions: ["fr"] })
    .returning({ number: runs.number });
  return run!.number;
}

describe("a run's number on the embedded database", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ dataDir: "memory://" });
  });
  afterAll(() => handle.close());

  it("counts each boost's runs apart, however their creations interleave, and the site's warms apart from both", async () => {
    const owner = await siteWithTwoBoosts(handle, "numbers.example.com");
    const made = [];
    for (const boostId of [owner.nightly, owner.weekly, owner.nightly, null, owner.weekly, owner.nightly, null]) made.push(await addRun(handle.db, owner, boostId));
    expect(made).toEqual([1, 1, 2, 1, 2, 3, 2]);
  });

  it("never gives a deleted run's number to the next run", async () => {
    const owner = await siteWithTwoBoosts(handle, "retention.example.com");
    await addRun(handle.db, owner, owner.nightly);
    await addRun(handle.db, owner, owner.nightly);
    await handle.db.delete(runs).where(eq(runs.boostId, owner.nightly));
    expect(await addRun(handle.db, owner, owner.nightly)).toBe(3);
  });
});

const installed = Boolean(postgresBinDir());

describe.skipIf(!installed)("a run's number on a PostgreSQL server", () => {
  let server: Awaited<ReturnType<typeof startPostgresServer>>;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    server = await startPostgresServer();
    process.env.DATABASE_URL = server.url;
    try {
      handle = await openDatabase();
    } finally {
      delete process.env.DATABASE_URL;
    }
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await server?.stop();
  });

  it("gives runs of one boost created at once distinct numbers, each transaction holding on before it commits", async () => {
    const owner = await siteWithTwoBoosts(handle, "concurrent.example.com");
    const numbers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        handle.db.transaction(async (tx) => {
          const number = await addRun(tx, owner, i % 3 === 2 ? owner.weekly : owner.nightly);
          await new Promise((resolve) => setTimeout(resolve, 30));
          return number;
        }),
      ),
    );
    const ofNightly = numbers.filter((_, i) => i % 3 !== 2).sort();
    const ofWeekly = numbers.filter((_, i) => i % 3 === 2).sort();
    expect({ ofNightly, ofWeekly }).toEqual({ ofNightly: [1, 2, 3, 4], ofWeekly: [1, 2] });
  });
});
