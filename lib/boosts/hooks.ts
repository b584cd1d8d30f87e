import { randomBytes } from "node:crypto";
import { and, count, desc, eq } from "drizzle-orm";
import { boostHooks, boosts, runs, sites } from "@/drizzle/schema";
import type { Page } from "@/lib/core/pagination";
import { iso } from "@/lib/core/primitives";
import { hashToken } from "@/lib/auth/token-hash";
import type { AccountContext } from "@/lib/context";
import { type Database, isUniqueViolation } from "@/lib/db";
import { NotFoundError, notFound } from "@/lib/core/errors";
import { sendJob } from "@/lib/jobs";
import { assertUnvalidatedRunBudget, insertBoostRun, type RunRow } from "@/lib/runs/service";
import { publicBaseUrl } from "@/lib/config/base-url";
import { activeRunsOf, getBoostRow } from "./service";

type HookRow = typeof boostHooks.$inferSelect;

/** Deploy-hook tokens start so, which tells them apart from API keys (`phk_`) in a leaked log. */
const TOKEN_PREFIX = "phd_";
/** Characters of the token shown in lists, to tell hooks apart: not enough to use one. */
const SHOWN_PREFIX_LENGTH = 10;

const hookPath = (token: string) => `/v1/hooks/${token}`;

function toHook(row: HookRow) {
  return { id: row.id, boost_id: row.boostId, name: row.name, prefix: row.prefix, last_used_at: iso(row.lastUsedAt), created_at: row.createdAt.toISOString() };
}

/** Makes a secret trigger URL for the boost; the URL (its token) is in this answer only, only its hash is kept. */
export async function createHook(ctx: AccountContext, boostId: number, input: { name?: string | null }) {
  const boost = await getBoostRow(ctx.db, ctx, boostId);
  const token = `${TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  const [row] = await ctx.db
    .insert(boostHooks)
    .values({ boostId: boost.id, name: input.name ?? null, prefix: token.slice(0, SHOWN_PREFIX_LENGTH), hash: hashToken(token) })
    .returning();
  return { ...toHook(row!), url: `${publicBaseUrl()}${hookPath(token)}` };
}

export async function listHooks(ctx: AccountContext, boostId: number, page: Page) {
  const boost = await getBoostRow(ctx.db, ctx, boostId);
  const where = eq(boostHooks.boostId, boost.id);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(boostHooks).where(where).orderBy(desc(boostHooks.id)).limit(page.limit).offset(page.offset),
    ctx.db.select({ n: count() }).from(boostHooks).where(where),
  ]);
  return { data: rows.map(toHook), total: total?.n ?? 0, ...page };
}

/** Revokes the hook: its URL answers 404 from now on. */
export async function deleteHook(ctx: AccountContext, boostId: number, hookId: number): Promise<void> {
  const boost = await getBoostRow(ctx.db, ctx, boostId);
  const deleted = await ctx.db
    .delete(boostHooks)
    .where(and(eq(boostHooks.id, hookId), eq(boostHooks.boostId, boost.id)))
    .returning({ id: boostHooks.id });
  if (!deleted.length) throw notFound("Hook");
}

/** The run a hook started or joined, and the hook itself with its organization (whom the audit log names). */
export type HookTrigger = { run: RunRow; coalesced: boolean; hook: { id: number; accountId: number } };

const UNKNOWN_HOOK = "Unknown or revoked hook.";

/**
 * A call to a deploy hook. With no run of the boost pending or running, it starts one. Otherwise
 * it is coalesced: a pending run has not read anything yet, so it covers this call too; a running
 * one may have read its URLs before the deploy, so one follow-up run waits (pending) and starts when
 * it ends (startFollowUp). However many calls arrive, a boost has one run warming and one waiting.
 */
export async function triggerHook(db: Database, token: string): Promise<HookTrigger> {
  const [hook] = await db
    .update(boostHooks)
    .set({ lastUsedAt: new Date() })
    .where(eq(boostHooks.hash, hashToken(token)))
    .returning();
  if (!hook) throw new NotFoundError(UNKNOWN_HOOK);
  // Two calls at the same instant may both try to add the waiting run: the loser finds it on its second look.
  for (let attempt = 0; ; attempt++) {
    try {
      const { run, coalesced, accountId } = await coalesce(db, hook.boostId, hook.name ?? hook.prefix);
      return { run, coalesced, hook: { id: hook.id, accountId } };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}

/**
 * Starts a run of the boost as a deploy does (a deploy hook, a deploy notification to a change
 * receiver), or joins the run already waiting: `coalesced` then. Behind a run still warming, the new
 * one is its follow-up.
 */
export async function startAsDeploy(db: Database, boostId: number, by: string): Promise<{ run: RunRow; coalesced: boolean }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { run, coalesced } = await coalesce(db, boostId, by);
      return { run, coalesced };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}

async function coalesce(db: Database, boostId: number, hookName: string): Promise<{ run: RunRow; coalesced: boolean; accountId: number }> {
  const [boost] = await db.select({ boost: boosts, accountId: sites.accountId }).from(boosts).innerJoin(sites, eq(sites.id, boosts.siteId)).where(eq(boosts.id, boostId));
  if (!boost) throw new NotFoundError(UNKNOWN_HOOK);
  const outcome = await db.transaction(async (tx) => {
    const row = await getBoostRow(tx, { accountId: boost.accountId }, boostId, undefined, true);
    const active = await tx.select().from(runs).where(activeRunsOf(boostId));
    const pending = active.find((run) => run.status === "pending");
    if (pending) return { run: pending, coalesced: true, start: false };
    await assertUnvalidatedRunBudget(tx, row.siteId);
    // Behind a run still warming, this one waits for it: a follow-up.
    const run = await insertBoostRun(tx, row, { kind: active.length ? "follow_up" : "deploy_hook", label: hookName });
    return { run, coalesced: active.length > 0, start: active.length === 0 };
  });
  // A follow-up's planning is queued by the end of the run before it.
  if (outcome.start) await sendJob("run.plan", { runId: outcome.run.id, siteId: outcome.run.siteId });
  return { run: outcome.run, coalesced: outcome.coalesced, accountId: boost.accountId };
}

/** After a boost run ends: the boost's waiting follow-up, if any, is planned now. */
export async function startFollowUp(db: Database, boostId: number): Promise<void> {
  const [waiting] = await db
    .select({ id: runs.id, siteId: runs.siteId })
    .from(runs)
    .where(and(eq(runs.boostId, boostId), eq(runs.status, "pending")));
  if (!waiting) return;
  // The run that ended set the boost back to `active`; its follow-up makes it `running` again.
  await db.update(boosts).set({ status: "running", updatedAt: new Date() }).where(eq(boosts.id, boostId));
  await sendJob("run.plan", { runId: waiting.id, siteId: waiting.siteId });
}
