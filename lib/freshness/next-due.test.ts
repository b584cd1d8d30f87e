import { describe, expect, it } from "vitest";
import type { FreshnessReading } from "@/lib/warm/freshness";
import { nextDue } from "./next-due";

const at = new Date("2026-11-28T12:00:00.000Z");
const settings = { lead: 0, floorSeconds: 60, slackSeconds: 2 };
const seconds = (n: number) => new Date(at.getTime() + n * 1000);

/** A storable answer with `lifetime` seconds for a shared cache, `age` of them used on arrival. */
function reading(lifetime: number | null, more: Partial<FreshnessReading> = {}): FreshnessReading {
  const age = more.ageSeconds ?? 0;
  return {
    storable: true,
    notStorableBecause: null,
    lifetimeSeconds: lifetime,
    ageSeconds: age,
    freshUntil: lifetime === null ? null : seconds(lifetime - age),
    staleWhileRevalidateSeconds: 0,
    staleIfErrorSeconds: 0,
    revalidatesEveryRequest: false,
    heuristic: false,
    source: lifetime === null ? null : "cache-control",
    staleOnArrival: lifetime !== null && age >= lifetime,
    directivesFrom: "cache-control",
    ...more,
  };
}

describe("when a keep-warm entry is warmed next", () => {
  it("just after the page expires on a standard cache: never while it is still fresh, within the slack", () => {
    const due = nextDue(reading(3600), settings, at);
    expect(due).toEqual({ dueAt: seconds(3601), reason: null });
  });

  it("counts the age the page arrived with: a page 600 s old with an hour's lifetime expires in 3,000 s", () => {
    expect(nextDue(reading(3600, { ageSeconds: 600 }), settings, at).dueAt).toEqual(seconds(3001));
  });

  it("falls inside a stale-while-revalidate window, where the CDN still serves the stale copy as a hit", () => {
    const due = nextDue(reading(300, { staleWhileRevalidateSeconds: 60 }), settings, at).dueAt!;
    expect(due.getTime()).toBeGreaterThan(seconds(300).getTime());
    expect(due.getTime()).toBeLessThan(seconds(360).getTime());
  });

  it("after a re-warm inside the window, a lifetime later: the CDN served the stale copy and refreshed it from that request", () => {
    // Answered 25 s into a 20 s lifetime with a 20 s window: stale, but the copy the CDN now keeps is fresh until at + 20 s.
    const due = nextDue(reading(20, { ageSeconds: 25, staleWhileRevalidateSeconds: 20 }), { ...settings, floorSeconds: 10 }, at);
    expect(due).toEqual({ dueAt: seconds(21), reason: null });
    expect(nextDue(reading(20, { ageSeconds: 45, staleWhileRevalidateSeconds: 20 }), { ...settings, floorSeconds: 10 }, at).reason).toMatch(/stale on arrival/);
  });

  it("comes a share of the lifetime earlier with a lead, for CDNs that refresh ahead of expiry", () => {
    expect(nextDue(reading(1000), { ...settings, lead: 0.1 }, at).dueAt).toEqual(seconds(900));
  });

  it("never sooner than the floor after the last warm", () => {
    expect(nextDue(reading(100), { ...settings, lead: 0.9 }, at).dueAt).toEqual(seconds(60));
  });

  it("is not chased when the page cannot be kept warm, and says why", () => {
    expect(nextDue(reading(30), settings, at)).toEqual({ dueAt: null, reason: "a shared-cache lifetime of 30 s: shorter than the 60 s floor" });
    expect(nextDue(reading(null, { storable: false, notStorableBecause: "private" }), settings, at).reason).toMatch(/private/);
    expect(nextDue(reading(null, { storable: false, notStorableBecause: "authorization" }), settings, at).reason).toMatch(/Authorization/);
    expect(nextDue(reading(0, { revalidatesEveryRequest: true }), settings, at).reason).toMatch(/no-cache/);
    expect(nextDue(reading(null), settings, at).reason).toMatch(/lifetime unknown/);
    expect(nextDue(reading(600, { ageSeconds: 900 }), settings, at).reason).toMatch(/stale on arrival/);
    expect(nextDue(null, settings, at).reason).toMatch(/no answer/);
  });
});
