/**
 * Warming calls in flight per site in this process, shared by every run warming that site (a
 * boost run and an on-demand warm may run at once): the site's concurrency bounds the site, not
 * each run, and so does its rate cap. Separate worker processes each keep their own count.
 */
const inFlight = new Map<number, number>();
const listeners = new Map<number, Set<() => void>>();

export function siteHasRoom(siteId: number, limit: number): boolean {
  return (inFlight.get(siteId) ?? 0) < limit;
}

/** When each rate-capped site may start its next call (performance.now() time). */
const nextStart = new Map<number, number>();

/** How long to wait before the site's next call may start under its max_requests_per_second; 0: now. */
export function siteStartDelay(siteId: number, requestsPerSecond: number | null): number {
  if (!requestsPerSecond) return 0;
  return Math.max(0, (nextStart.get(siteId) ?? 0) - performance.now());
}

export function takeSiteSlot(siteId: number, requestsPerSecond: number | null = null): void {
  inFlight.set(siteId, (inFlight.get(siteId) ?? 0) + 1);
  if (requestsPerSecond) nextStart.set(siteId, Math.max(performance.now(), nextStart.get(siteId) ?? 0) + 1000 / requestsPerSecond);
  else nextStart.delete(siteId);
}

export function releaseSiteSlot(siteId: number): void {
  const left = (inFlight.get(siteId) ?? 1) - 1;
  if (left > 0) inFlight.set(siteId, left);
  else inFlight.delete(siteId);
  for (const listener of listeners.get(siteId) ?? []) listener();
}

/** Calls `listener` whenever a call to the site returns; the result unsubscribes. */
export function onSiteSlotFreed(siteId: number, listener: () => void): () => void {
  let set = listeners.get(siteId);
  if (!set) listeners.set(siteId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (!set.size) listeners.delete(siteId);
  };
}
