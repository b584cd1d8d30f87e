import type { USER_AGENT_CLASSES } from "@/lib/core/variations";

export type UserAgentClass = (typeof USER_AGENT_CLASSES)[number];

/**
 * What each class sends for a top-level navigation (a visitor typing the URL), header for header,
 * as its browser or crawler sends it today: caches key on more than the User-Agent (the encoding,
 * Vary on client hints), and bot rules look at all of them. One place to update when browsers move
 * on. Accept-Language is added per call (its language); Accept-Encoding is replaced by the call's
 * encoding variant when it has one. Names are lower case, as undici sends them.
 *
 * Sources:
 * - Chrome 142 on Windows: Chromium's navigation headers (content/common/content_constants_internal.cc
 *   kFrameAcceptHeaderValue; net/url_request Accept-Encoding with `zstd` since Chrome 123,
 *   chromestatus 6186023867908096), the low-entropy client hints sent by default (Sec-CH-UA with the
 *   GREASE brand of components/embedder_support/user_agent_utils.cc, Sec-CH-UA-Mobile,
 *   Sec-CH-UA-Platform: wicg.github.io/ua-client-hints), Fetch Metadata (w3c.github.io/webappsec-fetch-metadata),
 *   RFC 9218 Priority; the Sec-CH-UA value as captures of Chrome 142 requests show it.
 * - Safari 18 on iOS: WebKit's navigation Accept and `gzip, deflate, br` (no zstd), Fetch Metadata
 *   without Sec-Fetch-User, and no client hints (WebKit implements none).
 * - Googlebot: developers.google.com/search/docs/crawling-indexing/overview-google-crawlers (the
 *   User-Agent, "gzip, deflate, and Brotli (br)"), the Accept and From of Googlebot's requests in server logs.
 * - GPTBot: platform.openai.com/docs/bots (the User-Agent); Accept and Accept-Encoding as its
 *   requests show them in server logs (OpenAI documents no others).
 */
export type BrowserRequest = { userAgent: string; headers: Readonly<Record<string, string>> };

export const CHROME_VERSION = "142";

export const BROWSER_REQUESTS: Record<UserAgentClass, BrowserRequest> = {
  desktop: {
    userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_VERSION}.0.0.0 Safari/537.36`,
    headers: {
      "sec-ch-ua": `"Chromium";v="${CHROME_VERSION}", "Google Chrome";v="${CHROME_VERSION}", "Not_A Brand";v="99"`,
      "sec-ch-ua-mobile": "?0",
      "sec-ch-ua-platform": '"Windows"',
      "upgrade-insecure-requests": "1",
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
      "sec-fetch-site": "none",
      "sec-fetch-mode": "navigate",
      "sec-fetch-user": "?1",
      "sec-fetch-dest": "document",
      "accept-encoding": "gzip, deflate, br, zstd",
      priority: "u=0, i",
    },
  },
  mobile: {
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1",
    headers: {
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "sec-fetch-site": "none",
      "sec-fetch-mode": "navigate",
      "sec-fetch-dest": "document",
      "upgrade-insecure-requests": "1",
      "accept-encoding": "gzip, deflate, br",
      priority: "u=0, i",
    },
  },
  bot: {
    userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    headers: {
      accept: "text/html,application/xhtml+xml,application/signed-exchange;v=b3,application/xml;q=0.9,*/*;q=0.8",
      from: "googlebot(at)googlebot.com",
      "accept-encoding": "gzip, deflate, br",
    },
  },
  ai_crawler: {
    userAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
    headers: {
      accept: "*/*",
      "accept-encoding": "gzip, deflate, br",
    },
  },
};

/**
 * A custom User-Agent (a request profile's) is sent with what any current browser sends: no client
 * hints nor Fetch Metadata, which would claim a browser the string may not be.
 */
export const CUSTOM_AGENT_HEADERS: Readonly<Record<string, string>> = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
};

/** The User-Agent sent for each class. */
export const USER_AGENTS = Object.fromEntries(Object.entries(BROWSER_REQUESTS).map(([name, browser]) => [name, browser.userAgent])) as Record<UserAgentClass, string>;

export const DEFAULT_USER_AGENT: UserAgentClass = "desktop";

export function isUserAgentClass(agent: string): agent is UserAgentClass {
  return Object.hasOwn(BROWSER_REQUESTS, agent);
}
