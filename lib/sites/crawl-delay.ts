import { and, eq, isNull, lt, or } from "drizzle-orm";
import robotsParser from "robots-parser";
import { sites } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { guardedFetch } from "@/lib/fetch";

/** The product token a robots.txt names Preheat by (`User-agent: Preheat`); a group for `*` applies otherwise. */
const ROBOTS_USER_AGENT = "Preheat";
/** A Crawl-delay is honoured up to this: a robots.txt asking more would stop warming altogether. */
const MAX_CRAWL_DELAY_SECONDS = 60;
/** A site's robots.txt is read again after this long. */
const READ_AGAIN_MS = 24 * 3600_000;
const ROBOTS_TIMEOUT_MS = 5_000;
const ROBOTS_MAX_BYTES = 512 * 1024;

/** The Crawl-delay a robots.txt asks of Preheat, capped; null when it asks none (or gives an unreadable value). */
export function crawlDelayOf(robotsUrl: string, text: string): number | null {
  const delay = robotsParser(robotsUrl, text).getCrawlDelay(ROBOTS_USER_AGENT);
  if (delay === undefined || !Number.isFinite(delay) || delay <= 0) return null;
  return Math.min(delay, MAX_CRAWL_DELAY_SECONDS);
}

/**
 * Reads the site's robots.txt for its Crawl-delay once a day at most, at `origin` (the scheme and
 * host its calls go to), when a keep-warm boost's runs start (they come back all day long), through the guarded fetch layer, and keeps it on the site: its pace
 * (lib/sites/pace.ts sitePace) then follows it. A robots.txt that cannot be read asks nothing; a
 * failure never stops the run that asked.
 */
export async function refreshCrawlDelay(db: Database, siteId: number, origin: string, now = new Date()): Promise<void> {
  // Claimed first, so that two runs starting together read it once.
  const [due] = await db
    .update(sites)
    .set({ robotsReadAt: now })
    .where(and(eq(sites.id, siteId), or(isNull(sites.robotsReadAt), lt(sites.robotsReadAt, new Date(now.getTime() - READ_AGAIN_MS)))))
    .returning({ id: sites.id });
  if (!due) return;
  const robotsUrl = new URL("/robots.txt", origin).toString();
  let delay: number | null = null;
  try {
    const response = await guardedFetch(robotsUrl, { timeoutMs: ROBOTS_TIMEOUT_MS, maxBytes: ROBOTS_MAX_BYTES, headers: { "user-agent": `${ROBOTS_USER_AGENT} (robots.txt)` } });
    if (response.status >= 200 && response.status < 300) delay = crawlDelayOf(robotsUrl, response.body.toString("utf8"));
  } catch {
    // Unreachable or refused: a robots.txt that cannot be read asks no delay, as crawlers read it.
  }
  await db.update(sites).set({ crawlDelaySeconds: delay }).where(eq(sites.id, siteId));
}
