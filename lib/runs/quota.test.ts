import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, auditEvents, memberships } from "@/drizzle/schema";
import { type DatabaseHandle, isUniqueViolation, openDatabase } from "@/lib/db";
import { QuotaExceededError } from "@/lib/core/errors";
import { findOrCreateUser } from "@/lib/accounts/users";
import { insertSelecting } from "@/lib/db/insert-select";
import { addUsage, getQuota, quotaPeriod, reserveQuotaWith } from "./quota";

let handle: DatabaseHandle;
let accountId: number;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
  accountId = (await findOrCreateUser(handle.db, "quota@example.com")).user.accountId;
  await handle.db.update(accounts).set({ monthlyCallQuota: 100 }).where(eq(accounts.id, accountId));
});
afterAll(() => handle.close());

/** An audit entry written only when the quota is granted. */
const auditEntry = (action: string) => insertSelecting("test_audit_entry", auditEvents, { accountId, actorType: "system", actor: "test", action, targetType: "account" }, sql`granted`, sql`id`);
const entries = async (action: string) => (await handle.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.action, action)))[0]!.n;

describe("the monthly quota (one usage row per account and month)", () => {
  it("reserves what fits with the row that depends on it; a refusal counts and writes nothing", async () => {
    const reserve = (calls: number) => reserveQuotaWith<{ id: number }>(handle.db, accountId, calls, auditEntry("reserved"));
    expect((await reserve(60)).id).toBeGreaterThan(0);
    expect(await getQuota(handle.db, accountId)).toMatchObject({ limit: 100, used: 60, remaining: 40 });
    const refused = await reserve(41).catch((error) => error);
    expect(refused).toBeInstanceOf(QuotaExceededError);
    expect(refused.message).toMatch(/needs 41 calls and 40 of 100 remain/);
    expect((await getQuota(handle.db, accountId)).used).toBe(60);
    await reserve(40);
    expect((await getQuota(handle.db, accountId)).remaining).toBe(0);
    expect(await entries("reserved")).toBe(2);
  });

  it("takes the count back when the row that depends on it cannot be written", async () => {
    const { user } = await findOrCreateUser(handle.db, "quota-dependent@example.com");
    const other = user.accountId!;
    // The owner's membership exists already: its primary key refuses a second one.
    const duplicate = insertSelecting("test_membership", memberships, { accountId: other, userId: user.id, role: "owner" }, sql`granted`, sql`user_id`);
    expect(isUniqueViolation(await reserveQuotaWith(handle.db, other, 10, duplicate).catch((error) => error))).toBe(true);
    expect((await getQuota(handle.db, other)).used).toBe(0);
  });

  it("writes the dependent row's values as given, a null as SQL's null, through one statement built per shape", async () => {
    const { user } = await findOrCreateUser(handle.db, "quota-values@example.com");
    const entry = (changes: string[] | null) =>
      insertSelecting(
        "test_audit_changes",
        auditEvents,
        { accountId: user.accountId, actorType: "system", actor: "test", action: "quota.values", targetType: "account", changes },
        sql`granted`,
        sql`id`,
      );
    await reserveQuotaWith(handle.db, user.accountId, 1, entry(["limit"]));
    await reserveQuotaWith(handle.db, user.accountId, 1, entry(null));
    await reserveQuotaWith(handle.db, user.accountId, 1, entry(["limit", "plan"]));
    const rows = await handle.db
      .select({ changes: auditEvents.changes, absent: sql<boolean>`${auditEvents.changes} is null` })
      .from(auditEvents)
      .where(eq(auditEvents.action, "quota.values"))
      .orderBy(auditEvents.id);
    expect(rows).toEqual([
      { changes: ["limit"], absent: false },
      { changes: null, absent: true },
      { changes: ["limit", "plan"], absent: false },
    ]);
    expect((await getQuota(handle.db, user.accountId)).used).toBe(3);
  });

  it("counts a run's calls in the month it was created in, not the month they are added", async () => {
    const lastMonth = new Date(quotaPeriod().start.getTime() - 1);
    await addUsage(handle.db, accountId, lastMonth, 500);
    expect((await getQuota(handle.db, accountId)).used).toBe(100);
    expect((await getQuota(handle.db, accountId, lastMonth)).used).toBe(500);
  });
});
