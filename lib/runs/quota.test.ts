import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts } from "@/drizzle/schema";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { QuotaExceededError } from "@/lib/core/errors";
import { findOrCreateUser } from "@/lib/accounts/users";
import { addUsage, getQuota, quotaPeriod, reserveQuota } from "./quota";

let handle: DatabaseHandle;
let accountId: number;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
  accountId = (await findOrCreateUser(handle.db, "quota@example.com")).user.accountId;
  await handle.db.update(accounts).set({ monthlyCallQuota: 100 }).where(eq(accounts.id, accountId));
});
afterAll(() => handle.close());

describe("the monthly quota (one usage row per account and month)", () => {
  it("reserves what fits, and a refusal inside the transaction counts nothing", async () => {
    await handle.db.transaction((tx) => reserveQuota(tx, accountId, 60));
    expect(await getQuota(handle.db, accountId)).toMatchObject({ limit: 100, used: 60, remaining: 40 });
    const refused = await handle.db.transaction((tx) => reserveQuota(tx, accountId, 41)).catch((error) => error);
    expect(refused).toBeInstanceOf(QuotaExceededError);
    expect(refused.message).toMatch(/needs 41 calls and 40 of 100 remain/);
    expect((await getQuota(handle.db, accountId)).used).toBe(60);
    await handle.db.transaction((tx) => reserveQuota(tx, accountId, 40));
    expect((await getQuota(handle.db, accountId)).remaining).toBe(0);
  });

  it("counts a run's calls in the month it was created in, not the month they are added", async () => {
    const lastMonth = new Date(quotaPeriod().start.getTime() - 1);
    await addUsage(handle.db, accountId, lastMonth, 500);
    expect((await getQuota(handle.db, accountId)).used).toBe(100);
    expect((await getQuota(handle.db, accountId, lastMonth)).used).toBe(500);
  });
});
