import type { AccountContext } from "@/lib/context";

/** What the change API and each receiver answer for changes queued: the run they join, and when it warms. */
export type ChangesQueued = {
  run_id: number;
  /** URLs of this request the run will warm (new to it, or already in it). */
  url_count: number;
  status: "pending";
  /** When the run starts warming: the first change it gathered plus its delay. */
  warm_at: string;
};

export type ChangesInput = { urls: string[]; delay_seconds?: number };

/**
 * Queues changed URLs of a site for a warm through its change profile: coalesced with the changes
 * already waiting (a URL sent twice is warmed once), warmed ahead of the site's other runs once the
 * delay has passed. `ctx.trigger` says who sent them (a key, a receiver).
 */
export async function queueChanges(_ctx: AccountContext, _siteId: number, _input: ChangesInput): Promise<ChangesQueued> {
  throw new Error("queueChanges: being written on main");
}

/**
 * A site was deployed (Netlify, Vercel): its sitemaps are read again and the URLs they say changed
 * are warmed through the site's change profile, as `only_changed` does for a boost.
 */
export async function queueDeployChanges(_ctx: AccountContext, _siteId: number): Promise<ChangesQueued | null> {
  throw new Error("queueDeployChanges: being written on main");
}
