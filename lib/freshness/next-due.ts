import { setting } from "@/lib/config";
import type { FreshnessReading } from "@/lib/warm/freshness";

/** What a boost asks of keep-warm, and the service's bounds (PREHEAT_KEEP_WARM_*). */
export type KeepWarmSettings = {
  /** A share of the lifetime to re-warm ahead of expiry (0: just after it). */
  lead: number;
  /** The shortest time between two re-warms of one entry, in seconds. */
  floorSeconds: number;
  /** How late after expiry a re-warm may land, in seconds: it is aimed half of this after. */
  slackSeconds: number;
};

/** The service's keep-warm bounds (PREHEAT_KEEP_WARM_*) with a boost's lead. */
export function keepWarmSettings(lead: number): KeepWarmSettings {
  return { lead, floorSeconds: setting("PREHEAT_KEEP_WARM_MIN_INTERVAL_SECONDS"), slackSeconds: setting("PREHEAT_KEEP_WARM_SLACK_SECONDS") };
}

/** When an entry is warmed next, or why it is not chased (its due time then null). */
export type NextDue = { dueAt: Date; reason: null } | { dueAt: null; reason: string };

const NOT_STORABLE: Record<NonNullable<FreshnessReading["notStorableBecause"]>, string> = {
  no_store: "not storable by a shared cache (no-store)",
  private: "not storable by a shared cache (private)",
  authorization: "not storable by a shared cache (the request carries Authorization, and the answer does not allow it)",
  status: "not storable by a shared cache (its status is not cacheable)",
};

/**
 * When a keep-warm entry is warmed again after a call at `warmedAt` read as `reading` (ADR 0010).
 * On a standard cache a request while the page is fresh is a hit that renews nothing, so the re-warm
 * is aimed just after `fresh_until` (half the slack after it), where Preheat takes the miss instead of
 * a visitor; with `stale-while-revalidate` that moment is inside the window, where the CDN serves the
 * stale copy as a hit while the re-warm refreshes it. A lead moves it a share of the lifetime earlier,
 * for CDNs that refresh ahead of expiry on a request. Never sooner than the floor after the last warm.
 */
export function nextDue(reading: FreshnessReading | null, settings: KeepWarmSettings, warmedAt: Date): NextDue {
  if (!reading) return { dueAt: null, reason: "no answer yet: warmed at the boost's schedule" };
  if (!reading.storable) return { dueAt: null, reason: NOT_STORABLE[reading.notStorableBecause ?? "no_store"] ?? NOT_STORABLE.no_store };
  if (reading.revalidatesEveryRequest) return { dueAt: null, reason: "revalidated on every request (no-cache): a warm keeps nothing for the next visitor" };
  const lifetime = reading.lifetimeSeconds;
  if (lifetime === null || !reading.freshUntil) return { dueAt: null, reason: "lifetime unknown: warmed at the boost's schedule" };
  if (lifetime < settings.floorSeconds) return { dueAt: null, reason: `a shared-cache lifetime of ${lifetime} s: shorter than the ${settings.floorSeconds} s floor` };
  let expiry = reading.freshUntil.getTime();
  if (expiry <= warmedAt.getTime()) {
    // Stale inside its stale-while-revalidate window: what a re-warm aimed into that window gets. The
    // CDN served the stale copy and refreshes it from this request in the background, so the copy it
    // keeps is fresh for a lifetime from now; only past the window is the page stale for good.
    if (expiry + reading.staleWhileRevalidateSeconds * 1000 <= warmedAt.getTime()) return { dueAt: null, reason: "stale on arrival (its Age is past its lifetime): the CDN does not keep it fresh" };
    expiry = warmedAt.getTime() + lifetime * 1000;
  }
  const aimed = settings.lead > 0 ? expiry - settings.lead * lifetime * 1000 : expiry + (settings.slackSeconds * 1000) / 2;
  return { dueAt: new Date(Math.max(aimed, warmedAt.getTime() + settings.floorSeconds * 1000)), reason: null };
}
