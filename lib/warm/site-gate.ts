/**
 * Warming calls in flight per site in this process, shared by every run warming that site (a
 * boost run and an on-demand warm may run at once): PREHEAT_SITE_CONCURRENCY bounds the site, not
 * each run. Separate worker processes each keep their own count.
 */
const inFlight = new Map<number, number>();
const listeners = new Map<number, Set<() => void>>();

export function siteHasRoom(siteId: number, limit: number): boolean {
  return (inFlight.get(siteId) ?? 0) < limit;
}

export function takeSiteSlot(siteId: number): void {
  inFlight.set(siteId, (inFlight.get(siteId) ?? 0) + 1);
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
