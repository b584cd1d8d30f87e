import { wakeWaitingEntries } from "@/lib/freshness/entries";
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, or, sql } from "drizzle-orm";
import { accounts, accountUsage, apiKeys, memberships, plans, runs, sites, userSessions, users } from "@/drizzle/schema";
import { type CreateApiKeyInput, createApiKey, forgetRememberedKeys, listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { ConflictError, DomainError, NotFoundError } from "@/lib/core/errors";
import { ACTIVE_RUN_STATUSES } from "@/lib/core/run-status";
import type { Page } from "@/lib/core/pagination";
import { type Database, isUniqueViolation } from "@/lib/db";
import { escapeLike } from "@/lib/db/like";
import { sendJob } from "@/lib/jobs";
import { effectivePlan, type PlanRow } from "@/lib/plans/limits";
import { type PlanInput, type PlanUpdate, type SuspensionInput, toPlanView } from "@/lib/plans/schemas";
import { defaultSiteConcurrency } from "@/lib/sites/pace";
import { reactivateBoostsOfEndedRuns } from "@/lib/runs/lifecycle";
import { quotaPeriod } from "@/lib/runs/quota";
import { type AuditActor, recordAuditEvent } from "./audit";
import { findOrCreateUser, findUserByEmail } from "./users";

/*
 * What the operator of this service does: who may open the operator console, plans and which
 * organization is on which, suspension. Reached from the operator CLI and the console only, never
 * from the API or a customer's dashboard.
 */

async function userByEmail(db: Database, email: string) {
  const user = await findUserByEmail(db, email);
  if (!user) throw new NotFoundError(`No user with the e-mail address ${email}.`);
  return user;
}

/** Opens the operator console to the user (`users grant-operator --email`). */
export async function grantOperator(db: Database, email: string): Promise<void> {
  const user = await userByEmail(db, email);
  await db
    .update(users)
    .set({ operatorSince: sql`coalesce(${users.operatorSince}, now())` })
    .where(eq(users.id, user.id));
}

export async function revokeOperator(db: Database, email: string): Promise<void> {
  const user = await userByEmail(db, email);
  await db.update(users).set({ operatorSince: null }).where(eq(users.id, user.id));
}

export async function listOperators(db: Database) {
  const rows = await db.select({ email: users.email, since: users.operatorSince }).from(users).where(isNotNull(users.operatorSince)).orderBy(asc(users.email));
  return rows.map((row) => ({ email: row.email, since: row.since!.toISOString() }));
}

// —— Plans ——

/*
 * The correlated subqueries below name their tables by alias: drizzle writes a column inside a
 * select's sql`` without its table, where "id" would then mean the subquery's own id.
 */

/** How many organizations are on the plan of the outer row. */
const organizationsOnPlan = sql<number>`(select count(*) from ${accounts} a where a.plan_id = ${plans}.id)`.mapWith(Number);

function toPlanRecord(row: PlanRow, organizations: number) {
  return { ...toPlanView(effectivePlan(row)), organizations, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}
export type PlanRecord = ReturnType<typeof toPlanRecord>;

/** The columns a plan input sets: only what it supplies (an update leaves the rest). */
function planColumns(input: PlanUpdate): Partial<typeof plans.$inferInsert> {
  const columns: Partial<typeof plans.$inferInsert> = {};
  if (input.name !== undefined) columns.name = input.name;
  if (input.monthly_calls !== undefined) columns.monthlyCalls = input.monthly_calls;
  if (input.sites !== undefined) columns.maxSites = input.sites;
  if (input.max_site_concurrency !== undefined) columns.maxSiteConcurrency = input.max_site_concurrency;
  if (input.regions !== undefined) columns.regions = input.regions;
  if (input.run_results_max !== undefined) columns.runResultsMax = input.run_results_max;
  if (input.verification !== undefined) columns.verification = input.verification;
  if (input.run_retention_days !== undefined) columns.runRetentionDays = input.run_retention_days;
  return columns;
}

const duplicatePlan = (name: string | undefined) => new ConflictError(`A plan named ${name} exists already.`, undefined, "conflict");

export async function listPlans(db: Database): Promise<PlanRecord[]> {
  const rows = await db.select({ plan: plans, organizations: organizationsOnPlan }).from(plans).orderBy(asc(plans.name));
  return rows.map((row) => toPlanRecord(row.plan, row.organizations));
}

/** A plan by id, or by its name (the CLI names plans). */
export async function findPlan(db: Database, idOrName: number | string): Promise<PlanRecord> {
  const [row] = await db
    .select({ plan: plans, organizations: organizationsOnPlan })
    .from(plans)
    .where(typeof idOrName === "number" ? eq(plans.id, idOrName) : eq(plans.name, idOrName));
  if (!row) throw new NotFoundError(`No plan ${typeof idOrName === "number" ? `with id ${idOrName}` : `named ${idOrName}`}.`);
  return toPlanRecord(row.plan, row.organizations);
}

export async function createPlan(db: Database, input: PlanInput): Promise<PlanRecord> {
  try {
    const [row] = await db
      .insert(plans)
      .values({ ...planColumns(input), name: input.name })
      .returning();
    return toPlanRecord(row!, 0);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicatePlan(input.name);
    throw error;
  }
}

export async function updatePlan(db: Database, planId: number, input: PlanUpdate): Promise<PlanRecord> {
  const columns = planColumns(input);
  try {
    const [row] = Object.keys(columns).length ? await db.update(plans).set(columns).where(eq(plans.id, planId)).returning({ id: plans.id }) : [{ id: planId }];
    if (!row) throw new NotFoundError(`No plan with id ${planId}.`);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicatePlan(input.name);
    throw error;
  }
  if (input.max_site_concurrency != null)
    await lowerSiteConcurrency(db, sql`${sites.accountId} in (select ${accounts.id} from ${accounts} where ${accounts.planId} = ${planId})`, input.max_site_concurrency);
  return findPlan(db, planId);
}

/** Deletes a plan no organization is on. */
export async function deletePlan(db: Database, planId: number): Promise<void> {
  const plan = await findPlan(db, planId);
  if (plan.organizations) throw new ConflictError(`${plan.organizations} organization(s) are on the plan ${plan.name}: move them to another plan first.`);
  await db.delete(plans).where(eq(plans.id, planId));
}

/**
 * Sites that send more calls at once than a plan now allows are brought down to it (their own
 * setting, or the service default they follow), so that the figure a site shows is the one it gets.
 */
async function lowerSiteConcurrency(db: Database, which: ReturnType<typeof sql>, highest: number): Promise<void> {
  await db
    .update(sites)
    .set({ maxConcurrency: highest })
    .where(and(which, sql`coalesce(${sites.maxConcurrency}, ${defaultSiteConcurrency()}) > ${highest}`));
}

// —— Organizations ——

const operatorActor = (operator: string): AuditActor => ({ type: "operator", label: operator });

async function organizationRow(db: Database, accountId: number) {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!row) throw new NotFoundError(`Organization ${accountId} not found.`);
  return row;
}

/** Moves the organization to a plan (null: no plan, the service's configuration). `operator` names who did, in its audit log. */
export async function setOrganizationPlan(db: Database, accountId: number, planId: number | null, operator: string) {
  await organizationRow(db, accountId);
  const plan = planId === null ? null : await findPlan(db, planId);
  await db.update(accounts).set({ planId, updatedAt: new Date() }).where(eq(accounts.id, accountId));
  if (plan) await lowerSiteConcurrency(db, eq(sites.accountId, accountId), plan.limits.max_site_concurrency);
  await recordAuditEvent(db, { accountId, actor: operatorActor(operator), action: "organization.plan_changed", targetType: "organization", targetId: accountId, changes: ["plan"] });
  return organizationDetail(db, accountId);
}

const SUSPENDED_RUN_MESSAGE = "Stopped: the organization was suspended by the operator of this service.";

/**
 * Suspends the organization: its keys answer 403 `account_suspended` from the next request on (every
 * server reads the suspension with the key), its members see why, its schedules and hooks start
 * nothing, and its pending and running runs stop now (workers stop warming them at their next
 * recording, within a second or two). With `block_new_organizations`, its owners and admins cannot
 * go on in a new organization either (lib/accounts/organizations.ts) until it is resumed.
 */
export async function suspendOrganization(db: Database, accountId: number, suspension: SuspensionInput, operator: string) {
  await organizationRow(db, accountId);
  const stopped = await db.transaction(async (tx) => {
    await tx
      .update(accounts)
      .set({ suspendedAt: new Date(), suspensionReason: suspension.reason, suspensionBlocksNewOrganizations: suspension.block_new_organizations ?? false, updatedAt: new Date() })
      .where(eq(accounts.id, accountId));
    const ended = await tx
      .update(runs)
      .set({ status: "failed", statusMessage: SUSPENDED_RUN_MESSAGE, finishedAt: new Date() })
      .where(and(eq(runs.accountId, accountId), inArray(runs.status, [...ACTIVE_RUN_STATUSES])))
      .returning({ id: runs.id, boostId: runs.boostId });
    await reactivateBoostsOfEndedRuns(
      tx,
      ended.flatMap((run) => (run.boostId ? [run.boostId] : [])),
    );
    return ended;
  });
  forgetRememberedKeys(db);
  // What follows a run's end (its webhook event, its report) happens as for any run that fails.
  for (const run of stopped) await sendJob("run.ended", { runId: run.id });
  await recordAuditEvent(db, {
    accountId,
    actor: operatorActor(operator),
    action: "organization.suspended",
    targetType: "organization",
    targetId: accountId,
    changes: suspension.block_new_organizations ? ["block_new_organizations"] : [],
  });
  return { ...(await organizationDetail(db, accountId)), runs_stopped: stopped.length };
}

export async function resumeOrganization(db: Database, accountId: number, operator: string) {
  await organizationRow(db, accountId);
  await db.update(accounts).set({ suspendedAt: null, suspensionReason: null, suspensionBlocksNewOrganizations: false, updatedAt: new Date() }).where(eq(accounts.id, accountId));
  await wakeWaitingEntries(db, { accountId });
  forgetRememberedKeys(db);
  await recordAuditEvent(db, { accountId, actor: operatorActor(operator), action: "organization.resumed", targetType: "organization", targetId: accountId });
  return organizationDetail(db, accountId);
}

/** Each organization's figures the console lists: plan, this month's calls, sites, members, last activity. */
function organizationFigures(now: Date) {
  const { start } = quotaPeriod(now);
  return {
    id: accounts.id,
    name: accounts.name,
    createdAt: accounts.createdAt,
    suspendedAt: accounts.suspendedAt,
    suspensionReason: accounts.suspensionReason,
    suspensionBlocksNewOrganizations: accounts.suspensionBlocksNewOrganizations,
    monthlyCallQuota: accounts.monthlyCallQuota,
    plan: plans,
    callsThisMonth: sql<number>`coalesce((select u.planned_calls from ${accountUsage} u where u.account_id = ${accounts}.id and u.period_start = ${start.toISOString()}::timestamptz), 0)`.mapWith(
      Number,
    ),
    sites: sql<number>`(select count(*) from ${sites} s where s.account_id = ${accounts}.id)`.mapWith(Number),
    members: sql<number>`(select count(*) from ${memberships} m where m.account_id = ${accounts}.id)`.mapWith(Number),
    // The latest of: a run created, a key used, a member's session seen.
    lastActivityAt: sql<Date | null>`greatest(
      (select max(r.created_at) from ${runs} r where r.account_id = ${accounts}.id),
      (select max(k.last_used_at) from ${apiKeys} k where k.account_id = ${accounts}.id),
      (select max(us.last_seen_at) from ${userSessions} us where us.account_id = ${accounts}.id))`.mapWith((value) => (value ? new Date(value) : null)),
  };
}

function toOrganizationRecord(row: Awaited<ReturnType<typeof selectOrganizations>>[number]) {
  const plan = effectivePlan(row.plan);
  const monthlyCalls = row.monthlyCallQuota ?? plan.limits.monthlyCalls;
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    plan: { id: plan.id, name: plan.name },
    calls_this_month: row.callsThisMonth,
    monthly_calls: monthlyCalls,
    sites: row.sites,
    members: row.members,
    last_activity_at: row.lastActivityAt?.toISOString() ?? null,
    suspended: row.suspendedAt ? { since: row.suspendedAt.toISOString(), reason: row.suspensionReason, block_new_organizations: row.suspensionBlocksNewOrganizations } : null,
  };
}
export type OrganizationRecord = ReturnType<typeof toOrganizationRecord>;

function selectOrganizations(db: Database, now = new Date()) {
  return db.select(organizationFigures(now)).from(accounts).leftJoin(plans, eq(plans.id, accounts.planId)).$dynamic();
}

/** Organizations, newest first; `query` matches a name or a member's e-mail address. */
export async function listOrganizations(db: Database, filters: { query?: string }, page: Page): Promise<{ data: OrganizationRecord[]; total: number }> {
  const pattern = filters.query ? `%${escapeLike(filters.query)}%` : null;
  const where = pattern
    ? or(ilike(accounts.name, pattern), sql`exists (select 1 from ${memberships} m join ${users} u on u.id = m.user_id where m.account_id = ${accounts}.id and u.email ilike ${pattern})`)
    : undefined;
  const [rows, [total]] = await Promise.all([
    selectOrganizations(db).where(where).orderBy(desc(accounts.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(accounts).where(where),
  ]);
  return { data: rows.map(toOrganizationRecord), total: total?.n ?? 0 };
}

/** One organization with its members (e-mail and role). */
export async function organizationDetail(db: Database, accountId: number) {
  const [row] = await selectOrganizations(db).where(eq(accounts.id, accountId));
  if (!row) throw new NotFoundError(`Organization ${accountId} not found.`);
  const members = await db
    .select({ email: users.email, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.accountId, accountId))
    .orderBy(asc(users.email));
  return { ...toOrganizationRecord(row), member_list: members };
}

/** The organization a CLI argument names: its id, or a member's e-mail address (their current organization). */
export async function organizationIdOf(db: Database, idOrEmail: string): Promise<number> {
  if (/^\d+$/.test(idOrEmail)) return Number(idOrEmail);
  const user = await findUserByEmail(db, idOrEmail);
  if (!user?.accountId) throw new DomainError(`No organization for ${idOrEmail}: give its id (organizations list).`);
  return user.accountId;
}

// —— Keys for a user (what `keys list|create --email` do) ——

/** A user's organization and its keys, newest first. */
export async function keysOfUser(db: Database, email: string) {
  const user = await userByEmail(db, email);
  if (user.accountId === null) throw new NotFoundError(`${email} belongs to no organization.`);
  return { email: user.email, organization_id: user.accountId, keys: await listApiKeys(db, user.accountId) };
}

/**
 * A key in the organization the user of `email` works in; a new address gets a user and an
 * organization of its own first. The organization's audit log names the operator.
 */
export async function createKeyForUser(db: Database, email: string, input: Omit<CreateApiKeyInput, "accountId" | "userId">, operator: string) {
  const { user } = await findOrCreateUser(db, email);
  const { key, apiKey } = await createApiKey(db, { ...input, accountId: user.accountId, userId: user.id });
  await recordAuditEvent(db, { accountId: user.accountId, actor: operatorActor(operator), action: "key.created", targetType: "key", targetId: apiKey.id });
  return { key, apiKey: { ...apiKey, createdBy: user.email }, organization_id: user.accountId };
}

/** Revokes any organization's key at once; its audit log names the operator. */
export async function revokeKeyAsOperator(db: Database, keyId: number, operator: string) {
  const revoked = await revokeApiKey(db, keyId);
  await recordAuditEvent(db, { accountId: revoked.accountId, actor: operatorActor(operator), action: "key.revoked", targetType: "key", targetId: revoked.id });
  return revoked;
}
