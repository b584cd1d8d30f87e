import type { PlannedCall } from "@/drizzle/schema";
import { guardedCount } from "@/lib/fetch";
import { callOutcome, metrics } from "@/lib/observability/metrics";
import { type BlockVendor, blockBodyBytes, blockedBy, blockedSentence } from "./blocked";
import { type CacheReading, PRAGMA_AKAMAI, readCacheStatus } from "./cache-status";
import { regionProxyUrl } from "./egress";
import { identifyingHeaders } from "./identify";
import { PLAIN_REQUEST, type RunRequest } from "./run-request";
import { type NotCachedReason, whyNotCached } from "./not-cached";
import { USER_AGENTS, type UserAgentClass } from "./user-agents";

export const CALL_TIMEOUT_MS = 30_000;
/** Bodies are read to the end (a CDN must see a complete response) and discarded, up to this size. */
export const MAX_WARM_BODY_BYTES = 100 * 1024 * 1024;

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
  /** The bot protection that answered instead of the site (reason `blocked`). */
  blockedBy?: BlockVendor | null;
};

function retryAfterSeconds(value: string | string[] | undefined): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/** The request headers of a user-agent class and language: built once, shared by every call that sends them. */
const headerSets = new Map<string, Record<string, string>>();
function callHeaders(userAgent: string, language: string | null): Record<string, string> {
  const key = `${userAgent}\u0000${language ?? ""}`;
  let headers = headerSets.get(key);
  if (!headers) {
    headers = {
      "user-agent": USER_AGENTS[userAgent as UserAgentClass] ?? USER_AGENTS.desktop,
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
      "accept-encoding": "gzip, deflate, br",
      pragma: PRAGMA_AKAMAI,
    };
    if (language) headers["accept-language"] = `${language},${language.split("-")[0]};q=0.9`;
    headerSets.set(key, headers);
  }
  return headers;
}

/** One warming call: a GET as the user-agent class and language would send it, from the region's egress, with what the run sends beside. */
export async function warmCall(call: PlannedCall, region: string, request: RunRequest = PLAIN_REQUEST): Promise<CallOutcome> {
  const { callsInFlight, warmingCalls } = metrics();
  callsInFlight.inc({ region });
  const outcome = await exchange(call, region, request);
  callsInFlight.dec({ region });
  warmingCalls.inc({ outcome: callOutcome(outcome), region });
  return outcome;
}

async function exchange(call: PlannedCall, region: string, request: RunRequest): Promise<CallOutcome> {
  const started = performance.now();
  try {
    const headers = { ...callHeaders(call.user_agent, call.language), ...(await identifyingHeaders(call.url, request)) };
    const response = await guardedCount(call.url, { headers, proxy: regionProxyUrl(region), timeoutMs: CALL_TIMEOUT_MS, maxBytes: MAX_WARM_BODY_BYTES, keepBody: blockBodyBytes });
    const ms = performance.now() - started;
    const throttled = response.status === 429 || response.status === 503;
    const cache = readCacheStatus(response.headers);
    // A challenge page is no success, whatever its status (AWS WAF challenges with a 202).
    const blocked = blockedBy(response);
    return {
      ok: response.status < 400 && !blocked,
      status: response.status,
      ms,
      cache,
      reason: whyNotCached(response, cache, blocked),
      error: blocked ? `${blockedSentence(blocked)} (HTTP ${response.status})` : response.status < 400 ? null : `HTTP ${response.status}`,
      retryAfter: throttled ? retryAfterSeconds(response.headers["retry-after"]) : null,
      blockedBy: blocked,
    };
  } catch (error) {
    // Every failure of the exchange is a FetchError, its message meant for the site owner.
    return { ok: false, status: null, ms: performance.now() - started, cache: null, error: error instanceof Error ? error.message : String(error), retryAfter: null, reason: "http_error" };
  }
}
