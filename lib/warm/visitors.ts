import type { VisitorProfile } from "@/lib/core/visitor-profiles";
import { BROWSER_REQUESTS, type BrowserRequest, CHROME_VERSION, type UserAgentClass } from "./user-agents";

/** A visitor as a cache sees it: what its browser sends, what to call it, and the user-agent class that warms for it. */
export type Visitor = BrowserRequest & { label: string; warmedBy: UserAgentClass };

/**
 * What each standard visitor sends for a top-level navigation today, header for header (the
 * classes' table in user-agents.ts gives the sources of the shared ones). Chrome desktop and Safari
 * iOS are exactly the `desktop` and `mobile` classes: a warm of those classes fills what they ask for.
 * - Chrome on Android: Chromium's reduced User-Agent for Android (`Android 10; K`, chromium.org/updates/ua-reduction),
 *   desktop Chrome's navigation headers, with `Sec-CH-UA-Mobile: ?1` and `Sec-CH-UA-Platform: "Android"`.
 * - Firefox 145 on Windows: Gecko's navigation Accept, `gzip, deflate, br, zstd` (zstd since Firefox 126),
 *   Fetch Metadata and Priority, no client hints (Firefox implements none).
 * - Googlebot smartphone: its User-Agent as developers.google.com/search/docs/crawling-indexing/overview-google-crawlers
 *   gives it (an evergreen Chrome version in it), and Googlebot's Accept, From and Accept-Encoding.
 */
export const VISITORS: Record<VisitorProfile, Visitor> = {
  chrome_desktop: { ...BROWSER_REQUESTS.desktop, label: "Chrome desktop", warmedBy: "desktop" },
  chrome_android: {
    label: "Chrome Android",
    warmedBy: "mobile",
    userAgent: `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_VERSION}.0.0.0 Mobile Safari/537.36`,
    // Chrome's navigation headers, client hints saying a phone on Android.
    headers: { ...BROWSER_REQUESTS.desktop.headers, "sec-ch-ua-mobile": "?1", "sec-ch-ua-platform": '"Android"' },
  },
  safari_ios: { ...BROWSER_REQUESTS.mobile, label: "Safari iOS", warmedBy: "mobile" },
  firefox: {
    label: "Firefox",
    warmedBy: "desktop",
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:145.0) Gecko/20100101 Firefox/145.0",
    headers: {
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "accept-encoding": "gzip, deflate, br, zstd",
      "upgrade-insecure-requests": "1",
      "sec-fetch-dest": "document",
      "sec-fetch-mode": "navigate",
      "sec-fetch-site": "none",
      "sec-fetch-user": "?1",
      priority: "u=0, i",
    },
  },
  googlebot_smartphone: {
    label: "Googlebot smartphone",
    warmedBy: "bot",
    userAgent: `Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_VERSION}.0.7444.175 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`,
    headers: BROWSER_REQUESTS.bot.headers,
  },
};

export function isVisitorProfile(value: string): value is VisitorProfile {
  return Object.hasOwn(VISITORS, value);
}

/** The encoding a cache that normalises Accept-Encoding keys a request on: the best the client accepts, as Fastly's and Varnish's normalisation pick it. */
export function negotiatedEncoding(acceptEncoding: string | undefined): "zstd" | "br" | "gzip" | "identity" {
  const accepted = new Set(
    (acceptEncoding ?? "")
      .toLowerCase()
      .split(",")
      .map((part) => part.split(";").map((piece) => piece.trim()))
      .filter(([, q]) => !q?.startsWith("q=") || Number(q.slice(2)) > 0)
      .map(([name]) => name),
  );
  return (["zstd", "br", "gzip"] as const).find((encoding) => accepted.has(encoding)) ?? "identity";
}
