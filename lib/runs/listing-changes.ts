import { LRUCache } from "lru-cache";
import { type Database, listenOwned } from "@/lib/db";
import { oncePerDatabase } from "@/lib/db/per-database";

/**
 * The reads of GET /v1/runs's pages (which runs, their status and end time, the total), kept between
 * requests on the embedded database until the organization's boost runs change. Triggers on `runs`
 * (migration 0031) NOTIFY on this channel, with the organization's id, when a boost's run is added or
 * deleted or its status, end time, boost or organization changes; the notice reaches this process before the
 * statement that committed the change returns (listenOwned), and makes the organization's kept pages
 * stale. A page read is kept only under the organization's version read before it, so a change
 * committed while it was read makes it stale at once. The page statement was a quarter of the
 * request, and dashboards poll it (docs/benchmarks.md). On a PostgreSQL server, where a notice
 * arrives some time after its commit, every page is read.
 */
const RUNS_LISTING_CHANNEL = "preheat_runs_listing";

/** Pages kept at once, per process and database (at most 100 runs' stamps each, about 15 MB in all); the least recently read one out first. */
const PAGES_MAX = 1_000;

type Kept = { version: number; read: unknown };

type Listing = {
  /** Set once LISTEN ran: nothing is kept before, when a change could go unnoticed. */
  listening: boolean;
  /** Settles once LISTEN ran (or failed). */
  started: Promise<void>;
  /** Each organization's changes so far; an organization never changed is at 0. */
  versions: Map<number, number>;
  pages: LRUCache<string, Kept>;
};

function listingOf(db: Database): Listing {
  return oncePerDatabase("runsListing", db, () => {
    const listing: Listing = { listening: false, started: Promise.resolve(), versions: new Map(), pages: new LRUCache({ max: PAGES_MAX }) };
    const listen = listenOwned(db, RUNS_LISTING_CHANNEL, (payload) => {
      const accountId = Number(payload);
      listing.versions.set(accountId, (listing.versions.get(accountId) ?? 0) + 1);
    });
    if (listen) {
      listing.started = listen.then(
        () => {
          listing.listening = true;
        },
        (error) => console.error("[runs] listening for changes of the runs failed: every page is read", (error as Error).message),
      );
    }
    return listing;
  });
}

/** Whether pages of `db` are kept (the embedded database), once this process listens for the changes. */
export async function keepsListings(db: Database): Promise<boolean> {
  const listing = listingOf(db);
  await listing.started;
  return listing.listening;
}

/**
 * `read`'s answer for the page `page` of the organization's boost runs: the one kept from an earlier
 * request while none of its boost runs changed since, otherwise read now (and kept). The answer is
 * shared between requests: callers must not change it.
 */
export async function keptListingRead<T>(db: Database, accountId: number, page: string, read: () => Promise<T>): Promise<T> {
  const listing = listingOf(db);
  if (!listing.listening) return read();
  const key = `${accountId}/${page}`;
  const version = listing.versions.get(accountId) ?? 0;
  const kept = listing.pages.get(key);
  if (kept && kept.version === version) return kept.read as T;
  const fresh = await read();
  // A change committed while the page was read bumped the version: the read may predate it.
  if ((listing.versions.get(accountId) ?? 0) === version) listing.pages.set(key, { version, read: fresh });
  return fresh;
}
