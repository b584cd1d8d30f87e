import type { PlannedCall } from "@/lib/core/calls";
import { guardedCount } from "@/lib/fetch";
import { sameSite } from "@/lib/sites/domain-name";
import { callOutcome, metrics } from "@/lib/observability/metrics";
import { type BlockVendor, blockBodyBytes, blockedBy, blockedSentence } from "./blocked";
import { type CacheReading, PRAGMA_AKAMAI, readCacheStatus } from "./cache-status";
import { regionProxyUrl } from "./egress";
import { identifyingHeaders } from "./identify";
import { PLAIN_REQUEST, type RunRequest } from "./run-request";
import type { NotCachedReason } from "@/lib/core/not-cached";
import { whyNotCached } from "@/lib/warm/not-cached";
import { type FreshnessReading, readFreshness } from "./freshness";
import { BROWSER_REQUESTS, type BrowserRequest, CUSTOM_AGENT_HEADERS, isUserAgentClass } from "./user-agents";
import { isVisitorProfile, VISITORS } from "./visitors";

export const CALL_TIMEOUT_MS = 30_000;
/** Bodies are read to the end (a CDN must see a complete response) and discarded, up to this size. */
const MAX_WARM_BODY_BYTES = 100 * 1024 * 1024;

export type CallOutcome = {
  ok: boolean;
  status: number | null;
  ms: number;
  cache: CacheReading | null;
  error: string | null;
  /** Seconds the site asked us to wait (429/503 with Retry-After). */
  retryAfter: number | null;
  /** Why the call did not end as a cache hit; null when it did. */
  reason: NotCachedReason | null;
  /** The answer as a shared cache reads it, with the request as sent; null when no answer came. */
  freshness: FreshnessReading | null;
  /** The bot protection that answered instead of the site (reason `blocked`). */
  blockedBy?: BlockVendor | null;
  /** What the answer said of its cache key: the headers its Vary names and the cookies it set (names only, lower case). */
  keyedOn?: AnswerKey;
};

type AnswerKey = { vary: string[]; setCookies: string[] };

/** Vary's header names and the names of the cookies Set-Cookie sets (never their values). */
function answerKey(headers: Record<string, string | string[] | undefined>): AnswerKey {
  const all = (value: string | string[] | undefined) => (Array.isArray(value) ? value : value ? [value] : []);
  return {
    vary: all(headers.vary).flatMap((value) =>
      value
        .split(",")
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean),
    ),
    setCookies: all(headers["set-cookie"])
      .map((cookie) => (cookie.includes("=") ? cookie.slice(0, cookie.indexOf("=")).trim() : ""))
      .filter(Boolean),
  };
}

function retryAfterSeconds(value: string | string[] | undefined): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/** The variant's own headers (its agent's browser, language and encoding): built once, shared by every call that sends them. */
const headerSets = new Map<string, Readonly<Record<string, string>>>();
function variantHeaders(call: PlannedCall): Readonly<Record<string, string>> {
  const key = `${call.visitor ?? ""}\u0000${call.user_agent}\u0000${call.language ?? ""}\u0000${call.encoding ?? ""}`;
  let headers = headerSets.get(key);
  if (!headers) {
    const browser = browserOf(call);
    const built: Record<string, string> = { "user-agent": browser.userAgent, ...browser.headers, pragma: PRAGMA_AKAMAI };
    if (call.language) built["accept-language"] = `${call.language},${call.language.split("-")[0]};q=0.9`;
    // An encoding variant is sent exactly as named, for caches that key on the encoding.
    if (call.encoding) built["accept-encoding"] = call.encoding;
    headerSets.set(key, (headers = built));
    // Custom agents make the keys unbounded in number across runs: the cache is for the classes' few.
    if (headerSets.size > 1000) headerSets.clear();
  }
  return headers;
}

/** A visitor check's call is sent as its visitor; a warming call as its class, or as a custom User-Agent. */
function browserOf(call: PlannedCall): BrowserRequest {
  if (call.visitor && isVisitorProfile(call.visitor)) return VISITORS[call.visitor];
  return isUserAgentClass(call.user_agent) ? BROWSER_REQUESTS[call.user_agent] : { userAgent: call.user_agent, headers: CUSTOM_AGENT_HEADERS };
}

function cookieHeader(cookies: Readonly<Record<string, string>>): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
}

/**
 * Every header of one call: its variant's, then what its run sends beside them (the profile's
 * headers, cookies with the call's cookie set's, Basic auth to the site's own host only). The one
 * place a call's headers are put together; lib/fetch drops the credentials and the profile's headers
 * (`hostOnlyHeaders`) on a redirect to another host.
 * A visitor check's call sends what a visitor carries (cookies, Basic auth), not the profile's extra
 * headers: no visitor sends those, and a cache keyed on one must show as a miss.
 */
export function requestHeaders(call: PlannedCall, request: RunRequest): Readonly<Record<string, string>> {
  const variant = variantHeaders(call);
  const cookies = call.cookie_set ? { ...request.cookies, ...request.cookieSets[call.cookie_set] } : request.cookies;
  const authorization = request.authorization && sameSite(new URL(call.url).host, request.siteHost) ? request.authorization : null;
  const cookie = cookieHeader(cookies);
  const extra = call.visitor ? {} : request.headers;
  if (!cookie && !authorization && !Object.keys(extra).length) return variant;
  const headers: Record<string, string> = { ...variant, ...extra };
  if (cookie) headers.cookie = cookie;
  if (authorization) headers.authorization = authorization;
  return headers;
}

/**
 * The call's headers that follow no redirect to another host: the profile's own, given for the
 * site as its cookies and Basic auth are (which lib/fetch holds back already). A profile header
 * that replaces a browser header (`accept`) goes with them: the other host gets the request without it.
 */
function hostOnlyHeaders(call: PlannedCall, request: RunRequest): readonly string[] | undefined {
  if (call.visitor) return undefined;
  const names = Object.keys(request.headers);
  return names.length ? names : undefined;
}

let inFlightNow = 0;

/** Warming calls this process is making now (what a worker reports in with, for the operator console). */
export function warmingCallsInFlight(): number {
  return inFlightNow;
}

/** One warming call: a GET as the user-agent class and language would send it, from the region's egress, with what the run sends beside. */
export async function warmCall(call: PlannedCall, region: string, request: RunRequest = PLAIN_REQUEST): Promise<CallOutcome> {
  const { callsInFlight, warmingCalls } = metrics();
  callsInFlight.inc({ region });
  inFlightNow++;
  const outcome = await exchange(call, region, request).finally(() => inFlightNow--);
  callsInFlight.dec({ region });
  warmingCalls.inc({ outcome: callOutcome(outcome), region });
  return outcome;
}

async function exchange(call: PlannedCall, region: string, request: RunRequest): Promise<CallOutcome> {
  const started = performance.now();
  try {
    const headers = { ...requestHeaders(call, request), ...(await identifyingHeaders(call.url, request)) };
    const response = await guardedCount(call.url, {
      headers,
      hostOnlyHeaders: hostOnlyHeaders(call, request),
      proxy: regionProxyUrl(region),
      timeoutMs: CALL_TIMEOUT_MS,
      maxBytes: MAX_WARM_BODY_BYTES,
      keepBody: blockBodyBytes,
    });
    const ms = performance.now() - started;
    const receivedAt = new Date();
    const throttled = response.status === 429 || response.status === 503;
    const cache = readCacheStatus(response.headers);
    // A challenge page is no success, whatever its status (AWS WAF challenges with a 202).
    const blocked = blockedBy(response);
    const freshness = readFreshness({ requestHeaders: headers, status: response.status, responseHeaders: response.headers, cdn: cache.cdn, receivedAt });
    return {
      ok: response.status < 400 && !blocked,
      status: response.status,
      ms,
      cache,
      reason: whyNotCached(response, cache, freshness, blocked),
      freshness,
      error: blocked ? `${blockedSentence(blocked)} (HTTP ${response.status})` : response.status < 400 ? null : `HTTP ${response.status}`,
      retryAfter: throttled ? retryAfterSeconds(response.headers["retry-after"]) : null,
      blockedBy: blocked,
      keyedOn: answerKey(response.headers),
    };
  } catch (error) {
    // Every failure of the exchange is a FetchError, its message meant for the site owner.
    return {
      ok: false,
      status: null,
      ms: performance.now() - started,
      cache: null,
      error: error instanceof Error ? error.message : String(error),
      retryAfter: null,
      reason: "http_error",
      freshness: null,
    };
  }
}
