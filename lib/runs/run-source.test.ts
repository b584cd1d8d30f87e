import { describe, expect, it } from "vitest";
import type { runs } from "@/drizzle/schema";
import { AdaptiveWindow } from "@/lib/warm/adaptive-window";
import type { CallOutcome } from "@/lib/warm/call";
import type { Ticket } from "@/lib/warm/engine";
import { BLOCKED_STOP } from "./blocked";
import { type BatchRow, RunSource } from "./run-source";

const CALLS = 100;

function sourceOf({ regions = ["fr"], recorded = 0 } = {}) {
  const run = { id: 1, siteId: 1, regions, recentOutcomes: "" } as unknown as typeof runs.$inferSelect;
  const source = new RunSource(
    run,
    "fr",
    1,
    false,
    new AdaptiveWindow(CALLS),
    Infinity,
    () => {},
    () => {},
  );
  const batch = {
    id: 1,
    runId: 1,
    seq: 0,
    region: "fr",
    purpose: "warm",
    notBefore: null,
    calls: Array.from({ length: CALLS }, (_, i) => ({ url: `https://shop.test/${i}`, user_agent: "desktop", language: null })),
    totalCalls: recorded,
    dispatchedCalls: recorded,
    pops: {},
    notCached: {},
    popFigures: {},
    blockedBy: {},
    variantFigures: {},
    answerHeaders: {},
  } as unknown as BatchRow;
  source.addBatches([batch], 40);
  source.reserved(source.batches[0]!, CALLS); // every call reserved: only the rule on blocked calls can hold them
  return source;
}

const answer = (blocked: boolean): CallOutcome =>
  blocked
    ? { ok: false, status: 403, ms: 5, cache: null, error: null, retryAfter: null, reason: "blocked", blockedBy: "cloudflare", freshness: null }
    : { ok: true, status: 200, ms: 5, cache: null, error: null, retryAfter: null, reason: null, freshness: null };

/** Takes the run's first calls and answers them: `blocked` of them by bot protection, the others by the site. */
function firstCallsAnswered(source: RunSource, blocked: number): void {
  const tickets: Ticket[] = Array.from({ length: BLOCKED_STOP.firstCalls }, () => source.take()!);
  for (const [i, ticket] of tickets.entries()) ticket.settle(answer(i < blocked));
}

describe("a run's first calls and bot protection", () => {
  it("goes on past its first calls without waiting for a recording when it warms one region and they got through", () => {
    const source = sourceOf();
    firstCallsAnswered(source, 0);
    expect(source.take()?.call.url).toBe(`https://shop.test/${BLOCKED_STOP.firstCalls}`);
  });

  it("holds past them until a recording judges them when enough were blocked to stop it", () => {
    const source = sourceOf();
    firstCallsAnswered(source, BLOCKED_STOP.blocked);
    expect(source.take()).toBeUndefined();
  });

  it("holds past them when other regions' calls count among the run's first ones", () => {
    const source = sourceOf({ regions: ["fr", "us"] });
    firstCallsAnswered(source, 0);
    expect(source.take()).toBeUndefined();
  });

  it("holds past them when it resumes a run another worker began", () => {
    const source = sourceOf({ recorded: 10 });
    firstCallsAnswered(source, 0);
    expect(source.take()).toBeUndefined();
  });
});
