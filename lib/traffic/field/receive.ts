import { createHmac } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { fieldViews, sites } from "@/drizzle/schema";
import { type Budget, takePoint } from "@/lib/auth/rate-limit";
import { serviceSecret } from "@/lib/auth/service-secret";
import { setting } from "@/lib/config";
import { ForbiddenError, InvalidError, MalformedError, NotFoundError, TooManyRequestsError } from "@/lib/core/errors";
import { fieldErrors, summarise } from "@/lib/core/field-errors";
import type { DeviceClass } from "@/lib/core/traffic";
import type { Database } from "@/lib/db";
import { oncePerDatabase } from "@/lib/db/per-database";
import { preparedOnce } from "@/lib/db/prepared";
import { sameSite } from "@/lib/sites/domain-name";
import { type BeaconBody, beaconBody } from "./beacon-body";
import { readServerTiming } from "./server-timing";
import { ttfbBucket } from "./ttfb";

/**
 * One page view posted by the beacon (POST /b): checked, sampled, then counted into its hour's row of
 * `field_views`. Every refusal is thrown before anything is written; nothing about the visitor is
 * kept: not the address (only hashed, for the per-client budget, with a secret of the service's),
 * not the user agent, not the query string (the script never sends it).
 */
export type BeaconPost = {
  /** The body's bytes (the route caps them at MAX_BEACON_BYTES). */
  body: Uint8Array;
  /** The request's Origin header: the page that sent it. */
  origin: string | null;
  /** The client's address (lib/auth/client-address.ts), for its budget only. */
  client: string;
};

const WINDOW_SECONDS = 60;
const clientBudget = (): Budget => ({ name: "beacon-client", points: setting("PREHEAT_BEACON_PER_CLIENT_PER_MINUTE"), seconds: WINDOW_SECONDS });
const siteBudget = (): Budget => ({ name: "beacon-site", points: setting("PREHEAT_BEACON_PER_SITE_PER_MINUTE"), seconds: WINDOW_SECONDS });

const DEVICES: Record<BeaconBody["d"], DeviceClass> = { m: "mobile", t: "tablet", d: "desktop" };

/**
 * The client's budget is counted under a keyed hash of its address: on a PostgreSQL server the
 * budgets are rows of `rate_limits`, and a row must not hold a visitor's address. The key is the
 * service's own (kept in the database), so every server counts a client alike.
 */
function clientSubject(db: Database, client: string): Promise<string> {
  const key = oncePerDatabase("beacon-client-key", db, () => serviceSecret(db, "beacon_client_hash"));
  return key.then((secret) => createHmac("sha256", secret).update(client).digest("base64url").slice(0, 22));
}

const siteByKey = preparedOnce((db) =>
  db
    .select({ id: sites.id, domain: sites.domain })
    .from(sites)
    .where(eq(sites.beaconKey, sql.placeholder("key")))
    .prepare("beacon_site_by_key"),
);

const countView = preparedOnce((db) =>
  db
    .insert(fieldViews)
    .values({
      siteId: sql.placeholder("siteId"),
      hour: sql`date_trunc('hour', now(), 'UTC')`,
      path: sql.placeholder("path"),
      device: sql.placeholder("device"),
      pop: sql.placeholder("pop"),
      cache: sql.placeholder("cache"),
      ttfbBucket: sql.placeholder("ttfbBucket"),
      views: 1,
    })
    .onConflictDoUpdate({
      target: [fieldViews.siteId, fieldViews.hour, fieldViews.path, fieldViews.device, fieldViews.pop, fieldViews.cache, fieldViews.ttfbBucket],
      set: { views: sql`${fieldViews.views} + 1` },
    })
    .prepare("field_view_count"),
);

function parse(body: Uint8Array): BeaconBody {
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(body).toString("utf8"));
  } catch {
    throw new MalformedError("The page view is not valid JSON.");
  }
  const parsed = beaconBody.safeParse(data);
  if (!parsed.success) {
    const details = fieldErrors(parsed.error);
    throw new InvalidError(summarise(details), details);
  }
  return parsed.data;
}

/** Whether the page that posted is one of the site's: http(s), on its domain or that domain's `www.` form (the port the domain names, if it names one). */
export function fromSitePage(origin: string | null, domain: string): boolean {
  if (!origin) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const withPort = /:\d+$/.test(domain);
  return sameSite(withPort ? url.host : url.hostname, domain);
}

/** Checks one page view and counts it (or leaves it out of the sample): whether it was counted. */
export async function receiveView(db: Database, post: BeaconPost, draw: () => number = Math.random): Promise<{ counted: boolean }> {
  const client = await takePoint(db, clientBudget(), await clientSubject(db, post.client));
  if (!client.allowed) throw new TooManyRequestsError(`Too many page views from this client: at most ${client.limit} a minute.`, client.resetSeconds);
  const view = parse(post.body);
  const [site] = await siteByKey(db).execute({ key: view.k });
  if (!site) throw new NotFoundError("No site has this beacon key.");
  if (!fromSitePage(post.origin, site.domain)) {
    throw new ForbiddenError(`Page views of ${site.domain} are counted only from its own pages (their Origin).`, undefined, "origin_not_allowed");
  }
  // Drawn once the view is known to be good: a refusal never depends on the draw.
  if (draw() >= setting("PREHEAT_BEACON_SAMPLE")) return { counted: false };
  const budget = await takePoint(db, siteBudget(), `site:${site.id}`);
  if (!budget.allowed) throw new TooManyRequestsError(`Too many page views for this site: at most ${budget.limit} a minute are counted.`, budget.resetSeconds);
  const { verdict, pop } = readServerTiming(view.s.map(([name, desc]) => ({ name, desc })));
  await countView(db).execute({ siteId: site.id, path: view.p, device: DEVICES[view.d], pop, cache: verdict, ttfbBucket: ttfbBucket(view.t ?? null) });
  return { counted: true };
}
