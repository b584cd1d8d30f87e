/**
 * One reading of an answer as a shared cache (a CDN) reads it: whether it may store it and why not,
 * its freshness lifetime, its age on arrival and how long it stays fresh. Built on
 * http-cache-semantics in shared mode, fed the request headers as Preheat sent them; what this file
 * adds is what the library does not do, or does otherwise than RFC 9111: the targeted fields of
 * RFC 9213 per CDN, strict parsing of directives, dates and Age, the Date skew of §4.2.3, and the
 * storability of statuses. docs/guide/site-owners/cache-detection.md ("Freshness") lists each correction and the
 * public source of each CDN's field.
 */
import CachePolicy from "http-cache-semantics";

type RawHeaders = Record<string, string | string[] | undefined>;

/** A field whose directives replace Cache-Control (and Expires) for the cache it targets. */
type TargetedField = "cloudflare-cdn-cache-control" | "cdn-cache-control" | "surrogate-control";

export type FreshnessReading = {
  /** By a shared cache, with the request as sent. */
  storable: boolean;
  notStorableBecause: "no_store" | "private" | "authorization" | "status" | null;
  /**
   * The shared-cache freshness lifetime in seconds: null when not storable, and null when the answer
   * gives none (no explicit lifetime, no Last-Modified to guess from: the CDN's own default decides).
   */
  lifetimeSeconds: number | null;
  /** Current age on arrival: the Age header, or the Date skew when larger (RFC 9111 §4.2.3). */
  ageSeconds: number;
  /** receivedAt + (lifetime − age): in the past when the answer arrived stale; null without a lifetime. */
  freshUntil: Date | null;
  /** 0 when absent. */
  staleWhileRevalidateSeconds: number;
  staleIfErrorSeconds: number;
  /** no-cache, or a lifetime of 0 that may not be served stale: served only after revalidation. */
  revalidatesEveryRequest: boolean;
  /** The lifetime comes from §4.2.2 heuristics (Last-Modified), not from an explicit one. */
  heuristic: boolean;
  /** Which field gave the lifetime. */
  source: TargetedField | "cache-control" | "expires" | "heuristic" | null;
  /** Storable with a lifetime above 0 that the answer's age had already used up when it arrived. */
  staleOnArrival: boolean;
  /** Whose directives the cache followed: a targeted field, Cache-Control, or none (no field at all). */
  directivesFrom: TargetedField | "cache-control" | null;
};

/**
 * The targeted fields each cache honours, first match first (RFC 9213 §2.2: the first field of the
 * list with a valid, non-empty value replaces Cache-Control and Expires). Keyed by `CacheReading.cdn`.
 * Varnish honours none of them in its built-in VCL: a site that sends one through Varnish has a VCL
 * that does, in the usual order. nginx's proxy cache reads Cache-Control and Expires only.
 */
const TARGETS: Record<string, readonly TargetedField[]> = {
  cloudflare: ["cloudflare-cdn-cache-control", "cdn-cache-control"],
  fastly: ["surrogate-control", "cdn-cache-control"],
  akamai: ["cdn-cache-control", "surrogate-control"],
  varnish: ["cdn-cache-control", "surrogate-control"],
  nginx: [],
};
/** Any other CDN, or none named: RFC 9213 addresses CDN-Cache-Control to every CDN. */
const ANY_CDN: readonly TargetedField[] = ["cdn-cache-control"];

/** RFC 9111 §1.2.2: a delta-seconds beyond what a cache can represent counts as 2^31. */
const MAX_DELTA_SECONDS = 2_147_483_648;

const TCHAR = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]";
const DIRECTIVE = new RegExp(`^(${TCHAR}+)(?:=(${TCHAR}+|"(?:[^"\\\\]|\\\\.)*"))?$`);
const CACHE_DIRECTIVES = new Set(["max-age", "s-maxage", "no-store", "no-cache", "private", "public", "must-revalidate", "proxy-revalidate", "stale-while-revalidate", "stale-if-error"]);
const DELTA_DIRECTIVES = new Set(["max-age", "s-maxage", "stale-while-revalidate", "stale-if-error"]);

/** A directive's argument; `true` without one; `null` when the directive was there but malformed. */
type Directives = Map<string, string | true | null>;

function lines(headers: RawHeaders, name: string): string[] {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return Array.isArray(value) ? value : [String(value)];
  }
  return [];
}

/** Splits on `separator` outside double-quoted strings. */
function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quoted && c === "\\" && i + 1 < value.length) {
      current += c + value[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === separator && !quoted) {
      parts.push(current);
      current = "";
    } else current += c;
  }
  parts.push(current);
  return parts;
}

const unquote = (value: string): string => (value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value);

/**
 * Cache-Control as RFC 9111 §5.2 writes it: names in any case, token or quoted-string arguments (both
 * accepted, §5.2), the first occurrence of a directive wins (§4.2.1). A malformed element
 * (`max-age =60`) keeps its name with a null argument, so that a malformed lifetime reads as stale.
 * `withTargets` (Surrogate-Control): an element addressed to a named surrogate (`max-age=60;edge1`)
 * is not for Preheat's CDN, whose name it cannot know, and is left out.
 */
function parseDirectives(value: string, withTargets = false): Directives {
  const found: Directives = new Map();
  for (const raw of splitOutsideQuotes(value, ",")) {
    let element = raw.trim();
    if (!element) continue;
    if (withTargets) {
      const [directive, ...targets] = splitOutsideQuotes(element, ";");
      if (targets.length) continue;
      element = directive!.trim();
    }
    const match = element.match(DIRECTIVE);
    const name = (match ? match[1]! : element.split("=")[0]!.trim()).toLowerCase();
    if (!name || found.has(name)) continue;
    found.set(name, match ? (match[2] === undefined ? true : unquote(match[2])) : null);
  }
  return found;
}

const SF_KEY = /^[a-z*][a-z0-9_\-.*]*/;
const SF_BARE_ITEM = /^(?:-?\d{1,15}(?:\.\d{1,3})?|"(?:[ !#-[\]-~]|\\["\\])*"|[A-Za-z*][!#$%&'*+\-.^_`|~:/0-9A-Za-z]*|\?[01]|:[A-Za-z0-9+/=]*:)/;

/** One `key[=item](;param[=item])*` of a Structured Field, or null when it does not parse (RFC 8941 §4.2.2). */
function sfMember(member: string): [string, string | true] | null {
  const key = member.match(SF_KEY)?.[0];
  if (!key) return null;
  let rest = member.slice(key.length);
  let value: string | true = true;
  if (rest.startsWith("=")) {
    const item = rest.slice(1).match(SF_BARE_ITEM)?.[0];
    if (!item) return null;
    value = item;
    rest = rest.slice(1 + item.length);
  }
  while (rest.startsWith(";")) {
    const param = rest.slice(1).replace(/^ +/, "");
    const name = param.match(SF_KEY)?.[0];
    if (!name) return null;
    rest = param.slice(name.length);
    if (rest.startsWith("=")) {
      const item = rest.slice(1).match(SF_BARE_ITEM)?.[0];
      if (!item) return null;
      rest = rest.slice(1 + item.length);
    }
  }
  return rest === "" ? [key, value] : null;
}

/**
 * A targeted field is a Structured Field Dictionary (RFC 9213 §2.1): one that does not parse is
 * ignored whole, and so is an empty one. A directive whose value has another type than its
 * Cache-Control twin's (`max-age="60"`) is ignored alone.
 */
function parseTargeted(value: string): Directives | null {
  const found: Directives = new Map();
  for (const raw of splitOutsideQuotes(value, ",")) {
    const member = raw.replace(/^[ \t]+|[ \t]+$/g, "");
    const parsed = member ? sfMember(member) : null;
    if (!parsed) return null;
    const [key, item] = parsed;
    if (found.has(key)) found.delete(key); // RFC 8941: a later member of the same key overwrites.
    if (DELTA_DIRECTIVES.has(key)) {
      if (item !== true && /^\d+$/.test(item)) found.set(key, item);
    } else if (item !== "?0") found.set(key, item === true || item === "?1" ? true : item.startsWith('"') ? unquote(item) : item);
  }
  return found;
}

/** RFC 9111 §1.2.2 delta-seconds: digits only, capped at 2^31; anything else is null. */
function deltaSeconds(value: string | true | null | undefined): number | null {
  if (typeof value !== "string" || !/^\d+$/.test(value)) return null;
  return Math.min(Number(value), MAX_DELTA_SECONDS);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = "(?:mon|tue|wed|thu|fri|sat|sun)";
const LONG_DAYS = "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
const MONTH = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)";
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
const IMF_FIXDATE = new RegExp(`^${DAYS}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} gmt$`, "i");
const RFC850_DATE = new RegExp(`^${LONG_DAYS}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} gmt$`, "i");
const ASCTIME_DATE = new RegExp(`^${DAYS} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`, "i");

/**
 * An HTTP-date (RFC 9110 §5.6.7) in ms, or null: the IMF-fixdate and the two obsolete forms every
 * recipient must accept, names in any case. Date.parse (the library's) also takes `UTC`, other zones,
 * two-digit years and missing commas, which the RFC calls invalid.
 */
function httpDate(value: string | undefined, now: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  let day: string;
  let month: string;
  let year: number;
  let time: string[];
  let m = text.match(IMF_FIXDATE);
  if (m) [day, month, year, time] = [m[1]!, m[2]!, Number(m[3]), m.slice(4, 7)];
  else if ((m = text.match(RFC850_DATE))) {
    // §5.6.7: a two-digit year more than 50 years in the future is the most recent past year with those digits.
    const thisYear = new Date(now).getUTCFullYear();
    year = Math.floor(thisYear / 100) * 100 + Number(m[3]);
    if (year > thisYear + 50) year -= 100;
    [day, month, time] = [m[1]!, m[2]!, m.slice(4, 7)];
  } else if ((m = text.match(ASCTIME_DATE))) [month, day, time, year] = [m[1]!, m[2]!.trim(), m.slice(3, 6), Number(m[6])];
  else return null;
  const [h, min, s] = time.map(Number) as [number, number, number];
  const ms = Date.UTC(year, MONTHS.indexOf(month.toLowerCase()), Number(day), h, min, s);
  const check = new Date(ms);
  // 31 Feb or 25:00 roll over in Date.UTC: not a date.
  if (check.getUTCDate() !== Number(day) || check.getUTCHours() !== h || check.getUTCMinutes() !== min || check.getUTCSeconds() !== s) return null;
  return ms;
}

/**
 * The Age field's value in seconds: the first line's first member (the cache-tests suite's
 * age-parse-suffix and -prefix cases), digits only; anything else is ignored as 0.
 */
function ageValue(headers: RawHeaders): number {
  const first = lines(headers, "age")[0]?.split(",")[0]?.trim();
  return first !== undefined && /^\d+$/.test(first) ? Math.min(Number(first), MAX_DELTA_SECONDS) : 0;
}

/** The directives the CDN follows, and which field they came from. */
function governingDirectives(headers: RawHeaders, cdn: string | null): { directives: Directives; from: FreshnessReading["directivesFrom"] } {
  // `cdn` may be the name an RFC 9211 Cache-Status gives itself: any string, `constructor` included.
  const name = cdn?.toLowerCase();
  for (const field of name !== undefined && Object.hasOwn(TARGETS, name) ? TARGETS[name]! : ANY_CDN) {
    const value = lines(headers, field).join(", ");
    if (!value.trim()) continue;
    if (field === "surrogate-control") {
      const directives = parseDirectives(value, true);
      // Surrogate-Control also carries ESI's `content="ESI/1.0"`: only caching directives make it replace Cache-Control.
      if ([...directives.keys()].some((name) => CACHE_DIRECTIVES.has(name))) return { directives, from: field };
    } else {
      const directives = parseTargeted(value);
      if (directives) return { directives, from: field };
    }
  }
  const cacheControl = lines(headers, "cache-control");
  return { directives: parseDirectives(cacheControl.join(", ")), from: cacheControl.length ? "cache-control" : null };
}

/**
 * The Cache-Control handed to the library: only the directives it reads for storing and lifetime,
 * a malformed or negative lifetime written as 0 (stale, §4.2.1: invalid freshness information is
 * stale), and proxy-revalidate left out (the library zeroes the lifetime for it, where §5.2.2.8 only
 * forbids serving it stale).
 */
function libraryCacheControl(directives: Directives): string {
  const parts: string[] = [];
  for (const name of ["no-store", "no-cache", "private", "public", "must-revalidate"]) if (directives.has(name)) parts.push(name);
  for (const name of ["s-maxage", "max-age"]) if (directives.has(name)) parts.push(`${name}=${deltaSeconds(directives.get(name)) ?? 0}`);
  return parts.join(", ");
}

/** The statuses the library stores at all; another final status is stored with explicit freshness or `public` (RFC 9111 §3). */
const LIBRARY_STATUSES = new Set([200, 203, 204, 300, 301, 302, 303, 307, 308, 404, 405, 410, 414, 501]);

export function readFreshness(input: {
  requestHeaders: Record<string, string>;
  status: number;
  responseHeaders: Record<string, string | string[] | undefined>;
  cdn: string | null;
  receivedAt: Date;
}): FreshnessReading {
  const { responseHeaders: headers, receivedAt } = input;
  const now = receivedAt.getTime();
  const { directives, from } = governingDirectives(headers, input.cdn);
  const targeted = from !== null && from !== "cache-control";
  // RFC 9213 §2.2: a targeted field replaces Expires too. Two Expires lines: the first (§4.2.1); an invalid one is in the past (§5.3).
  const expiresLine = targeted ? undefined : lines(headers, "expires")[0];
  const expires = expiresLine === undefined ? undefined : httpDate(expiresLine, now);
  const date = httpDate(lines(headers, "date")[0], now) ?? now;
  const lastModified = httpDate(lines(headers, "last-modified")[0], now);
  const explicit = directives.has("s-maxage") || directives.has("max-age") || expiresLine !== undefined;

  const sent: Record<string, string> = Object.fromEntries(Object.entries(input.requestHeaders).map(([k, v]) => [k.toLowerCase(), v]));
  const request: CachePolicy.Request = { method: "GET", url: "/", headers: sent };
  const libraryHeaders: CachePolicy.Headers = { "cache-control": libraryCacheControl(directives), date: new Date(date).toUTCString() };
  if (expiresLine !== undefined) libraryHeaders.expires = expires === null ? "0" : new Date(expires!).toUTCString();
  if (lastModified !== null) libraryHeaders["last-modified"] = new Date(lastModified).toUTCString();
  // Set-Cookie, Vary and Pragma are left out: the library zeroes the lifetime for the first two (Preheat
  // has reasons of its own for them) and reads a response Pragma, which RFC 9111 §5.4 gives no meaning.
  // 206 is heuristically cacheable too (RFC 9110 §15.1), though the library never stores it.
  const status = !LIBRARY_STATUSES.has(input.status) && input.status >= 200 && (explicit || directives.has("public") || input.status === 206) ? 200 : input.status;
  const policy = new CachePolicy(request, { status, headers: libraryHeaders }, { shared: true, immutableMinTimeToLive: 0 });

  const noCache = directives.has("no-cache");
  const mustRevalidate = directives.has("must-revalidate") || directives.has("proxy-revalidate");
  const staleWhileRevalidateSeconds = deltaSeconds(directives.get("stale-while-revalidate")) ?? 0;
  const staleIfErrorSeconds = deltaSeconds(directives.get("stale-if-error")) ?? 0;
  const apparentAge = Math.max(0, Math.floor((now - date) / 1000));
  const ageSeconds = Math.max(apparentAge, ageValue(headers));
  const unstored = { lifetimeSeconds: null, freshUntil: null, revalidatesEveryRequest: false, heuristic: false, source: null, staleOnArrival: false };

  if (!policy.storable()) {
    const requestControl = parseDirectives(sent["cache-control"] ?? "");
    const because = directives.has("no-store") || requestControl.has("no-store") ? "no_store" : directives.has("private") ? "private" : sent.authorization ? "authorization" : "status";
    return { storable: false, notStorableBecause: because, ageSeconds, staleWhileRevalidateSeconds, staleIfErrorSeconds, directivesFrom: from, ...unstored };
  }
  const heuristic = !explicit && !noCache && lastModified !== null && lastModified < date;
  if (!explicit && !noCache && !heuristic) {
    return { storable: true, notStorableBecause: null, ageSeconds, staleWhileRevalidateSeconds, staleIfErrorSeconds, directivesFrom: from, ...unstored };
  }
  const lifetimeSeconds = Math.min(Math.floor(policy.maxAge()), MAX_DELTA_SECONDS);
  const source: FreshnessReading["source"] = heuristic ? "heuristic" : directives.has("s-maxage") || directives.has("max-age") || noCache ? (from ?? "cache-control") : "expires";
  return {
    storable: true,
    notStorableBecause: null,
    lifetimeSeconds,
    ageSeconds,
    freshUntil: new Date(now + (lifetimeSeconds - ageSeconds) * 1000),
    staleWhileRevalidateSeconds,
    staleIfErrorSeconds,
    // §4.2.4: a stale answer is served only after validation, unless stale-while-revalidate allows it and must-revalidate does not forbid it.
    revalidatesEveryRequest: noCache || (lifetimeSeconds === 0 && (mustRevalidate || staleWhileRevalidateSeconds === 0)),
    heuristic,
    source,
    staleOnArrival: lifetimeSeconds > 0 && ageSeconds >= lifetimeSeconds,
    directivesFrom: from,
  };
}
