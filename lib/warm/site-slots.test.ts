import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { siteSlots, sites } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { createSite } from "@/lib/sites/service";
import { CALL_TIMEOUT_MS } from "@/lib/warm/call";
import { WORKER_ID } from "@/lib/warm/workers";
import { renewSlots, shareOf } from "./site-slots";

describe("shareOf: a site's limit split between the workers warming it", () => {
  it("gives a lone worker the whole limit", () => {
    expect(shareOf(4, "w1", [])).toBe(4);
  });

  it("splits evenly, the remainder to the first in worker-id order", () => {
    expect(shareOf(3, "a", [{ workerId: "b", slots: 1 }])).toBe(2);
    expect(shareOf(3, "b", [{ workerId: "a", slots: 2 }])).toBe(1);
  });

  it("never counts on slots another worker still holds", () => {
    // b arrives while a holds all 4: b gets nothing until a has shrunk to its share.
    expect(shareOf(4, "b", [{ workerId: "a", slots: 4 }])).toBe(0);
    expect(shareOf(4, "a", [{ workerId: "b", slots: 0 }])).toBe(2);
    // a still holds 3 (its calls in flight): b gets only what is left.
    expect(shareOf(4, "b", [{ workerId: "a", slots: 3 }])).toBe(1);
  });

  it("with more workers than slots, some wait with none", () => {
    expect(shareOf(1, "b", [{ workerId: "a", slots: 1 }])).toBe(0);
    expect(shareOf(1, "a", [{ workerId: "b", slots: 0 }])).toBe(1);
  });
});

describe("renewSlots: one site's limit across workers", () => {
  let handle: DatabaseHandle;
  let siteId: number;
  beforeAll(async () => {
    handle = await openDatabase({ dataDir: "memory://" });
    const { user } = await findOrCreateUser(handle.db, "slots@example.com");
    siteId = (await createSite({ db: handle.db, accountId: user.accountId }, { domain: "slots.test" })).id;
    await handle.db.update(sites).set({ maxConcurrency: 4 }).where(eq(sites.id, siteId));
  });
  afterAll(() => handle.close());
  beforeEach(() => handle.db.delete(siteSlots));

  const other = (slots: number, expiresInSeconds: number) =>
    handle.db.insert(siteSlots).values({ siteId, workerId: "other-worker", slots, expiresAt: sql`now() + make_interval(secs => ${expiresInSeconds})` });
  const mine = async () => (await handle.db.select().from(siteSlots).where(eq(siteSlots.workerId, WORKER_ID)))[0]?.slots;

  it("a shrinking share is lowered here in the same instant the calls in flight are counted, and those stay held", async () => {
    expect((await renewSlots(handle.db, [siteId], [], () => 0))[0]!.slots).toBe(4);
    await other(0, 10); // a second worker arrives
    const lowered: number[] = [];
    const [grant] = await renewSlots(handle.db, [siteId], [], (_site, to) => {
      lowered.push(to);
      return 4; // four calls still out
    });
    expect(grant!.slots).toBe(2);
    expect(lowered).toEqual([2]);
    expect(await mine()).toBe(4);
  });

  it("counts a lapsed worker's slots for as long as its last calls may last, then gives them back", async () => {
    await other(3, -5); // its renewal is 5 s late: its calls sent before may still be at the site
    expect((await renewSlots(handle.db, [siteId], [], () => 0))[0]!.slots).toBe(1);
    await handle.db.delete(siteSlots);
    await other(3, -(CALL_TIMEOUT_MS / 1000) - 1); // past the longest call: none of its calls is left
    expect((await renewSlots(handle.db, [siteId], [], () => 0))[0]!.slots).toBe(4);
  });
});
