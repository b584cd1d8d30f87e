import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, boosts, emailOutbox, memberships, quotaNotices, runs } from "@/drizzle/schema";
import { startDueBoosts } from "@/lib/boosts/schedule-tick";
import { createBoost } from "@/lib/boosts/service";
import type { AccountContext } from "@/lib/context";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { addUsage, getQuota, noteQuotaSpent, reserveQuotaWith } from "@/lib/runs/quota";
import { pruneExpiredRuns } from "@/lib/runs/retention";
import { createSite, updateSite } from "@/lib/sites/service";
import { createPlan, findPlan, listPlans, organizationDetail, resumeOrganization, setOrganizationPlan, suspendOrganization, updatePlan } from "./operator";
import { createOrganization } from "./organizations";
import { sendQuotaNotices } from "./quota-notices";
import { findOrCreateUser } from "./users";

// The operator's verbs on a database of their own: plans as the domain enforces them, suspension, quota lines, retention.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
});
afterAll(() => handle.close());

async function organization(email: string): Promise<AccountContext> {
  const { user } = await findOrCreateUser(handle.db, email);
  return { db: handle.db, accountId: user.accountId! };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { code?: string; bodyFields?: () => unknown }) => ({ code: error.code, ...(error.bodyFields?.() as object) }),
  );

describe("plans", () => {
  it("refuse a site past the plan's count and a concurrency above its highest, and take the boundary value", async () => {
    const ctx = await organization("plan@example.com");
    const plan = await createPlan(handle.db, { name: "two-sites", sites: 2, max_site_concurrency: 3 });
    await setOrganizationPlan(handle.db, ctx.accountId, plan.id, "ops@example.com");
    const first = await createSite(ctx, { domain: "one.test" });
    await createSite(ctx, { domain: "two.test" });
    expect(await refusal(createSite(ctx, { domain: "three.test" }))).toEqual({ code: "plan_limit", limit: "sites", plan: "two-sites" });
    // The console's figures are this organization's own (a correlated count that named a bare "id" counted others').
    expect(await organizationDetail(handle.db, ctx.accountId)).toMatchObject({ sites: 2, members: 1, plan: { name: "two-sites" } });
    expect(await findPlan(handle.db, plan.id!)).toMatchObject({ organizations: 1 });
    expect((await listPlans(handle.db)).find((p) => p.id === plan.id)).toMatchObject({ organizations: 1 });
    expect((await updateSite(ctx, first.id, { max_concurrency: 3 })).maxConcurrency).toBe(3);
    expect(await refusal(updateSite(ctx, first.id, { max_concurrency: 4 }))).toEqual({ code: "plan_limit", limit: "max_site_concurrency", plan: "two-sites" });
  });

  it("bring a site's concurrency down when its organization moves to a plan that allows less", async () => {
    const ctx = await organization("lower@example.com");
    const site = await createSite(ctx, { domain: "lower.test" });
    await updateSite(ctx, site.id, { max_concurrency: 10 });
    const plan = await createPlan(handle.db, { name: "gentle", max_site_concurrency: 2 });
    await setOrganizationPlan(handle.db, ctx.accountId, plan.id, "ops@example.com");
    expect((await updateSite(ctx, site.id, {})).maxConcurrency).toBe(2);
    await updatePlan(handle.db, plan.id!, { max_site_concurrency: 1 });
    expect((await updateSite(ctx, site.id, {})).maxConcurrency).toBe(1);
  });

  it("set the month's quota, unless the organization has its own figure", async () => {
    const ctx = await organization("quota-plan@example.com");
    const plan = await createPlan(handle.db, { name: "calls-500", monthly_calls: 500 });
    await setOrganizationPlan(handle.db, ctx.accountId, plan.id, "ops@example.com");
    expect((await getQuota(handle.db, ctx.accountId)).limit).toBe(500);
    expect((await organizationDetail(handle.db, ctx.accountId)).plan).toEqual({ id: plan.id, name: "calls-500" });
    await handle.db.update(accounts).set({ monthlyCallQuota: 900 }).where(eq(accounts.id, ctx.accountId));
    expect((await getQuota(handle.db, ctx.accountId)).limit).toBe(900);
  });
});

describe("suspension", () => {
  it("stops the organization's runs, starts none of its schedules, and resuming lets them run again", async () => {
    const ctx = await organization("suspended@example.com");
    const site = await createSite(ctx, { domain: "suspended.test" });
    const boost = await createBoost(ctx, site.id, { name: "Every minute", source_type: "csv", source_url: "https://suspended.test/urls.csv", region: ["fr"], schedule: "* * * * *" });
    const [running] = await handle.db
      .insert(runs)
      .values({ kind: "boost", siteId: site.id, accountId: ctx.accountId, boostId: boost.id, regions: ["fr"], status: "running" })
      .returning();
    const suspended = await suspendOrganization(handle.db, ctx.accountId, { reason: "Unpaid invoice" }, "ops@example.com");
    expect(suspended).toMatchObject({ runs_stopped: 1, suspended: { reason: "Unpaid invoice" } });
    const [stopped] = await handle.db.select().from(runs).where(eq(runs.id, running!.id));
    expect(stopped).toMatchObject({ status: "failed", statusMessage: expect.stringMatching(/suspended/) });

    await handle.db
      .update(boosts)
      .set({ nextRunAt: new Date(Date.now() - 1000) })
      .where(eq(boosts.id, boost.id));
    expect((await startDueBoosts(handle.db)).started).toEqual([]);
    // The occurrence passed: resuming does not fire what was missed meanwhile.
    const [after] = await handle.db.select().from(boosts).where(eq(boosts.id, boost.id));
    expect(after!.nextRunAt!.getTime()).toBeGreaterThan(Date.now());

    await resumeOrganization(handle.db, ctx.accountId, "ops@example.com");
    await handle.db
      .update(boosts)
      .set({ nextRunAt: new Date(Date.now() - 1000) })
      .where(eq(boosts.id, boost.id));
    expect((await startDueBoosts(handle.db)).started).toHaveLength(1);
  });
});

describe("a suspension that blocks new organizations", () => {
  it("refuses another organization to the suspended one's owners and admins until it is resumed; its members and other suspensions leave it open", async () => {
    const ctx = await organization("blocked-owner@example.com");
    const { user: owner } = await findOrCreateUser(handle.db, "blocked-owner@example.com");
    const admin = (await findOrCreateUser(handle.db, "blocked-admin@example.com")).user;
    const member = (await findOrCreateUser(handle.db, "blocked-member@example.com")).user;
    await handle.db.insert(memberships).values([
      { accountId: ctx.accountId, userId: admin.id, role: "admin" },
      { accountId: ctx.accountId, userId: member.id, role: "member" },
    ]);
    const create = (userId: number) => refusal(handle.db.transaction((tx) => createOrganization(tx, { name: "Fresh start", ownerUserId: userId })));

    // A suspension alone (the default) does not reach the members' other organizations.
    await suspendOrganization(handle.db, ctx.accountId, { reason: "Unpaid invoice" }, "ops@example.com");
    expect(await create(owner.id)).toBeUndefined();

    await resumeOrganization(handle.db, ctx.accountId, "ops@example.com");
    const suspended = await suspendOrganization(handle.db, ctx.accountId, { reason: "Unpaid invoice", block_new_organizations: true }, "ops@example.com");
    expect(suspended.suspended).toMatchObject({ reason: "Unpaid invoice", block_new_organizations: true });
    for (const userId of [owner.id, admin.id]) expect(await create(userId)).toMatchObject({ code: "account_suspended", reason: "Unpaid invoice" });
    expect(await create(member.id)).toBeUndefined();

    const resumed = await resumeOrganization(handle.db, ctx.accountId, "ops@example.com");
    expect(resumed.suspended).toBeNull();
    expect(await create(owner.id)).toBeUndefined();
    expect(await create(admin.id)).toBeUndefined();
  });
});

describe("quota lines", () => {
  it("are recorded once each when a count reaches 80 % and 100 %, and e-mailed to the owners once", async () => {
    const ctx = await organization("lines@example.com");
    await handle.db.update(accounts).set({ monthlyCallQuota: 100 }).where(eq(accounts.id, ctx.accountId));
    const lines = async () => (await handle.db.select().from(quotaNotices).where(eq(quotaNotices.accountId, ctx.accountId))).map((row) => row.percent).sort((a, b) => a - b);
    await addUsage(handle.db, ctx.accountId, new Date(), 79);
    expect(await lines()).toEqual([]);
    await addUsage(handle.db, ctx.accountId, new Date(), 1);
    expect(await lines()).toEqual([80]);
    // A refused reservation counts nothing and records nothing...
    await reserveQuotaWith(handle.db, ctx.accountId, 21, { shape: "test_reserved", build: () => sql`select 1 as reserved from granted`, values: {} }).catch(() => undefined);
    expect(await lines()).toEqual([80]);
    expect(await sendQuotaNotices(handle.db)).toBe(1);
    expect(await sendQuotaNotices(handle.db)).toBe(0);
    // ...but the refusal itself is the news of the 100 % line.
    await noteQuotaSpent(handle.db, ctx.accountId);
    await addUsage(handle.db, ctx.accountId, new Date(), 20);
    expect(await lines()).toEqual([80, 100]);
    expect(await sendQuotaNotices(handle.db)).toBe(1);
    const emails = await handle.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, "lines@example.com"));
    expect(emails.map((email) => email.subject).sort()).toEqual(["lines@example.com has used 80 % of this month's Preheat calls", "lines@example.com has used this month's Preheat calls"].sort());
    expect(emails[0]!.text).toMatch(/\/usage/);
  });
});

describe("run retention", () => {
  it("deletes the ended runs older than the plan keeps, and nothing of an organization on no plan", async () => {
    const kept = await organization("keeps@example.com");
    const pruned = await organization("prunes@example.com");
    const plan = await createPlan(handle.db, { name: "a-week", run_retention_days: 7 });
    await setOrganizationPlan(handle.db, pruned.accountId, plan.id, "ops@example.com");
    const old = new Date(Date.now() - 8 * 86_400_000);
    const insert = async (ctx: AccountContext, domain: string, status: string, createdAt: Date) => {
      const site = await createSite(ctx, { domain });
      const [run] = await handle.db
        .insert(runs)
        .values({ kind: "warm", siteId: site.id, accountId: ctx.accountId, regions: ["fr"], status, createdAt })
        .returning();
      return run!.id;
    };
    const oldDone = await insert(pruned, "old-done.test", "done", old);
    const oldRunning = await insert(pruned, "old-running.test", "running", old);
    const recent = await insert(pruned, "recent.test", "done", new Date());
    const noPlan = await insert(kept, "kept.test", "done", old);
    expect(await pruneExpiredRuns(handle.db)).toBe(1);
    const left = (await handle.db.select({ id: runs.id }).from(runs)).map((run) => run.id);
    expect(left).not.toContain(oldDone);
    expect(left).toEqual(expect.arrayContaining([oldRunning, recent, noPlan]));
  });
});
