import { isbot } from "isbot";

/**
 * A user agent that is not a person's browser: isbot's list (crawlers, monitors, HTTP libraries
 * such as curl), and an empty user agent, which no browser sends. A log repeats a few hundred
 * user agents millions of times, so answers are kept; the cache starts over when full so that a
 * log of random user agents cannot grow it.
 */
const MAX_CACHED = 20_000;
const cache = new Map<string, boolean>();

export function isBot(userAgent: string | null): boolean {
  // A format without a user agent (CLF's common) cannot tell: its lines count.
  if (userAgent === null) return false;
  const ua = userAgent.trim();
  if (ua === "" || ua === "-") return true;
  let bot = cache.get(ua);
  if (bot === undefined) {
    bot = isbot(ua);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(ua, bot);
  }
  return bot;
}
