import { describe, expect, it } from "vitest";
import type { PlannedCall } from "@/lib/core/calls";
import type { CallOutcome } from "./call";
import { type Ticket, WarmEngine, type WarmSource } from "./engine";
import { PLAIN_REQUEST } from "./run-request";

const OK: CallOutcome = { ok: true, status: 200, ms: 1, cache: null, error: null, retryAfter: null, reason: null, freshness: null };

/** A source of `calls` calls to site 1; each call stays out until `answer()` lets the oldest back. */
function world(calls: number) {
  const pending: (() => void)[] = [];
  let sent = 0;
  const engine = new WarmEngine(100, () => new Promise<CallOutcome>((resolve) => pending.push(() => resolve(OK))));
  const source: WarmSource = {
    accountId: 1,
    siteId: 1,
    inFlight: 0,
    window: () => 100,
    notBefore: () => 0,
    take: (): Ticket | undefined => {
      if (sent === calls) return undefined;
      sent++;
      return { call: { url: `http://a.test/${sent}` } as PlannedCall, region: "fr", request: PLAIN_REQUEST, settle: () => {} };
    },
  };
  engine.add(source);
  const answer = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { engine, sent: () => sent, answer };
}

describe("WarmEngine and a site's lease", () => {
  it("sends nothing to a site once this worker's lease has lapsed, until a renewal comes", () => {
    const { engine, sent } = world(10);
    engine.setSite(1, 3, null, performance.now() - 1);
    engine.pump();
    expect(sent()).toBe(0);
    expect(engine.siteRoom(1)).toBe(0); // nothing is reserved either
    engine.setSite(1, 3, null, performance.now() + 10_000);
    engine.pump();
    expect(sent()).toBe(3);
  });

  it("a lowered limit holds from the instant the renewal counts the calls in flight", async () => {
    const { engine, sent, answer } = world(10);
    engine.setSite(1, 3, null, performance.now() + 10_000);
    engine.pump();
    expect(sent()).toBe(3);
    expect(engine.lowerSite(1, 1)).toBe(3);
    await answer();
    await answer();
    expect(sent()).toBe(3); // one still out: nothing new past the lowered limit
    await answer();
    expect(sent()).toBe(4);
  });
});

describe("WarmEngine's lane for a site's changes", () => {
  it("gives a freed slot of the site to the urgent source first, within the site's limit", async () => {
    const pending: (() => void)[] = [];
    const engine = new WarmEngine(100, () => new Promise<CallOutcome>((resolve) => pending.push(() => resolve(OK))));
    const sentBy: string[] = [];
    const source = (name: string, calls: number, urgent: boolean): WarmSource => {
      let left = calls;
      const own: WarmSource = {
        accountId: 1,
        siteId: 1,
        inFlight: 0,
        urgent,
        window: () => 100,
        notBefore: () => 0,
        take: (): Ticket | undefined => {
          if (!left) return undefined;
          left--;
          sentBy.push(name);
          return { call: { url: `http://a.test/${name}/${left}` } as PlannedCall, region: "fr", request: PLAIN_REQUEST, settle: () => {} };
        },
      };
      return own;
    };
    engine.setSite(1, 2, null, performance.now() + 10_000);
    engine.add(source("boost", 1000, false));
    expect(sentBy).toEqual(["boost", "boost"]);
    engine.add(source("changes", 3, true));
    expect(sentBy).toHaveLength(2); // the site is full: the changes wait for a slot
    for (let i = 0; i < 5; i++) {
      pending.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Each freed slot went to the changes until none were left; never more than two calls out.
    expect(sentBy).toEqual(["boost", "boost", "changes", "changes", "changes", "boost", "boost"]);
    expect(engine.inFlight).toBe(2);
  });
});
