import { type RateLimiterAbstract, RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { rateLimits } from "@/drizzle/schema";
import { type Database, ownedByThisProcess } from "@/lib/db";
import { oncePerDatabase } from "@/lib/db/per-database";
import { setting } from "@/lib/config";

/**
 * Budgets counted in the database (rate-limiter-flexible's RateLimiterDrizzle on the `rate_limits`
 * table), so that every server process draws on the same one. On the embedded database, which one
 * process owns, they are counted in that process's memory (RateLimiterMemory): the same count without
 * a write per request, which cost a fifth of an API request there (docs/benchmarks.md); they start
 * afresh when the server restarts. Fixed windows: a budget refills `seconds` after the first point
 * of its window was taken.
 */
export type Budget = { name: string; points: number; seconds: number };

/** Where a subject stands in its budget after a request: what the RateLimit-* headers say. */
export type BudgetState = { limit: number; remaining: number; resetSeconds: number };

const API_WINDOW_SECONDS = 60;

/** PREHEAT_RATE_LIMIT_PER_MINUTE (600 by default): the API requests one key (or one signed-in account) may make a minute. */
export const apiBudget = (): Budget => ({ name: "api", points: setting("PREHEAT_RATE_LIMIT_PER_MINUTE"), seconds: API_WINDOW_SECONDS });

function limiterFor(db: Database, budget: Budget): RateLimiterAbstract {
  // One per process: a budget counted in memory must be one for every route.
  const byBudget = oncePerDatabase("limiters", db, () => new Map<string, RateLimiterAbstract>());
  const id = `${budget.name}/${budget.points}/${budget.seconds}`;
  let limiter = byBudget.get(id);
  if (!limiter) {
    const options = { keyPrefix: budget.name, points: budget.points, duration: budget.seconds };
    // Only the first limiter of a database sweeps the expired rows of all of them.
    limiter = ownedByThisProcess(db) ? new RateLimiterMemory(options) : new RateLimiterDrizzle({ ...options, storeClient: db, schema: rateLimits, clearExpiredByTimeout: byBudget.size === 0 });
    byBudget.set(id, limiter);
  }
  return limiter;
}

function stateOf(budget: Budget, answer: RateLimiterRes): BudgetState {
  return { limit: budget.points, remaining: Math.max(0, answer.remainingPoints), resetSeconds: Math.max(1, Math.ceil(answer.msBeforeNext / 1000)) };
}

/** Takes one point of `subject`'s budget: `allowed` is false once the budget is spent (the point is counted all the same). */
export async function takePoint(db: Database, budget: Budget, subject: string): Promise<BudgetState & { allowed: boolean }> {
  try {
    return { allowed: true, ...stateOf(budget, await limiterFor(db, budget).consume(subject)) };
  } catch (refused) {
    if (refused instanceof RateLimiterRes) return { allowed: false, ...stateOf(budget, refused) };
    throw refused;
  }
}

/** Seconds until `subject` may try again: 0 while its budget lasts. Takes nothing. */
export async function secondsUntilAllowed(db: Database, budget: Budget, subject: string): Promise<number> {
  const state = await limiterFor(db, budget).get(subject);
  return state && state.consumedPoints >= budget.points ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : 0;
}

/** Counts a failure against `subject` without asking whether it was allowed. */
export async function countFailure(db: Database, budget: Budget, subject: string): Promise<void> {
  await limiterFor(db, budget).penalty(subject, 1);
}

export async function forgive(db: Database, budget: Budget, subject: string): Promise<void> {
  await limiterFor(db, budget).delete(subject);
}

/** The IETF draft's RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds until the budget refills). */
export function rateLimitHeaders(state: BudgetState): Record<string, string> {
  return { "ratelimit-limit": String(state.limit), "ratelimit-remaining": String(state.remaining), "ratelimit-reset": String(state.resetSeconds) };
}
