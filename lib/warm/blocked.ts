import zlib from "node:zlib";
import type { BlockVendor } from "@/lib/core/block-vendors";

export { ALLOW_LISTING_PATH, BLOCK_VENDORS, type BlockVendor, blockedSentence } from "@/lib/core/block-vendors";

/**
 * Tells a bot protection's answer (a challenge, a captcha, a block page) from the site's own, and
 * names who gave it. A site that challenges Preheat's calls is not cached for anyone Preheat claims
 * to be: such a call is `blocked`, never a hit, a miss or an http_error.
 *
 * One table of fingerprints, tried in order, first match wins: the vendors' own headers first
 * (documented, and present whatever the status), then status + body markers. A plain 403 or 429
 * is the site's own answer (http_error): only a documented fingerprint makes a call blocked.
 *
 * docs/guide/site-owners/cache-detection.md ("Bot protection") documents the table; keep the two together.
 */
type RawHeaders = Record<string, string | string[] | undefined>;

/** The statuses bot protections answer with (AWS WAF's 202 and 405 included): only these bodies are read. */
const CHALLENGE_STATUSES = new Set([202, 401, 403, 405, 429, 503]);
/** The start of a body is enough: every marker below is in a challenge page's head or first lines. */
export const BLOCK_BODY_BYTES = 16 * 1024;
/** Imperva serves its challenge and incident pages with a 200: read a 200 of its only when that small. */
const IMPERVA_PAGE_BYTES = 4 * 1024;

/**
 * How much of a call's body to keep for the fingerprints: none for the answers that cannot be a
 * challenge, so the hot path (a 200 page) does no body work at all.
 */
export function blockBodyBytes(status: number, headers: RawHeaders): number {
  if (CHALLENGE_STATUSES.has(status)) return BLOCK_BODY_BYTES;
  const length = Number(headerOf(headers, "content-length") ?? Number.NaN);
  return headerOf(headers, "x-iinfo") !== null && length <= IMPERVA_PAGE_BYTES ? BLOCK_BODY_BYTES : 0;
}

function headerOf(headers: RawHeaders, name: string): string | null {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (value === undefined || key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value.join(", ") : String(value);
  }
  return null;
}

/** The kept start of a body as text, decoded as far as it goes (a cut gzip or brotli stream still gives its start). */
function bodyText(body: Buffer | null | undefined, encoding: string | null): string {
  if (!body?.length) return "";
  try {
    switch ((encoding ?? "").trim().toLowerCase()) {
      case "gzip":
      case "x-gzip":
        return zlib.gunzipSync(body, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString("utf8");
      case "deflate":
        return zlib.inflateSync(body, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString("utf8");
      case "br":
        return zlib.brotliDecompressSync(body, { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }).toString("utf8");
      default:
        return body.toString("utf8");
    }
  } catch {
    // A body that does not decode carries no marker we could read: the headers alone decide.
    return "";
  }
}

/** What a fingerprint reads: the status, the headers (lower-case names), and the body's start, decoded on first use. */
class Answer {
  private readonly values = new Map<string, string>();
  private decoded: string | undefined;

  constructor(
    readonly status: number,
    headers: RawHeaders,
    private readonly body: Buffer | null | undefined,
  ) {
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (value === undefined) continue;
      const key = name.toLowerCase();
      const joined = Array.isArray(value) ? value.join(", ") : String(value);
      this.values.set(key, this.values.has(key) ? `${this.values.get(key)}, ${joined}` : joined);
    }
  }

  header(name: string): string | null {
    return this.values.get(name) ?? null;
  }

  /** The header's value, lower-cased, as a list of its comma-separated words. */
  words(name: string): string[] {
    return (this.header(name) ?? "")
      .toLowerCase()
      .split(",")
      .map((word) => word.trim());
  }

  get text(): string {
    this.decoded ??= bodyText(this.body, this.header("content-encoding"));
    return this.decoded;
  }

  bodyHas(...markers: (string | RegExp)[]): boolean {
    const text = this.text;
    return markers.some((marker) => (typeof marker === "string" ? text.includes(marker) : marker.test(text)));
  }
}

/** The headers that mark a block whatever the status (undici gives names in lower case). */
const BLOCK_HEADERS = ["cf-mitigated", "x-amzn-waf-action", "x-vercel-mitigated", "x-sucuri-block"];

type Fingerprint = { vendor: BlockVendor; matches: (a: Answer) => boolean };

const refused = (a: Answer, ...statuses: number[]) => statuses.includes(a.status);

/** In order: first match wins. Each row is documented, with its source, in docs/guide/site-owners/cache-detection.md. */
const FINGERPRINTS: readonly Fingerprint[] = [
  // Cloudflare documents `cf-mitigated: challenge` on every challenge page, whatever its type.
  { vendor: "cloudflare", matches: (a) => a.words("cf-mitigated").includes("challenge") },
  // AWS WAF documents its Challenge (202) and CAPTCHA (405) actions by this header.
  { vendor: "aws_waf", matches: (a) => a.words("x-amzn-waf-action").some((w) => w === "challenge" || w === "captcha") },
  // Vercel's firewall marks the requests it challenged or denied.
  { vendor: "vercel", matches: (a) => a.words("x-vercel-mitigated").some((w) => w === "challenge" || w === "deny") },
  // Sucuri's firewall names the rule that blocked in X-Sucuri-Block; its block page says who it is.
  { vendor: "sucuri", matches: (a) => a.header("x-sucuri-block") !== null || (refused(a, 403) && a.bodyHas("Sucuri WebSite Firewall")) },
  // DataDome blocks with the 401/403 of its decision and merges its own headers into the answer; its captcha comes from captcha-delivery.com.
  {
    vendor: "datadome",
    matches: (a) => refused(a, 401, 403) && (a.header("x-datadome") !== null || a.header("x-dd-b") !== null || a.bodyHas("captcha-delivery.com")),
  },
  // Imperva (Incapsula) sends x-iinfo on every answer, its cached pages too: only its incident and challenge pages are blocks.
  { vendor: "imperva", matches: (a) => a.header("x-iinfo") !== null && a.bodyHas("Incapsula incident ID", "_Incapsula_Resource") },
  // HUMAN (PerimeterX) blocks with a 403, its _pxhd cookie and its "Press & Hold" captcha.
  { vendor: "human", matches: (a) => refused(a, 403) && (/(?:^|[,;\s])_pxhd=/.test(a.header("set-cookie") ?? "") || a.bodyHas("px-captcha", "_pxAppId", "captcha.px-cdn.net")) },
  // Akamai's edge denies with its own page: "Access Denied", and a "Reference #" to quote to support.
  { vendor: "akamai", matches: (a) => refused(a, 403) && /^AkamaiGHost\b/i.test(a.header("server") ?? "") && a.bodyHas("Access Denied") && a.bodyHas("Reference #") },
  // Cloudflare's challenge and block pages without the header (older challenges, the 1020 "Access denied" page).
  {
    vendor: "cloudflare",
    matches: (a) =>
      refused(a, 403, 429, 503) &&
      (/^cloudflare\b/i.test(a.header("server") ?? "") || a.header("cf-ray") !== null) &&
      a.bodyHas("cf-chl-", "_cf_chl_opt", "/cdn-cgi/challenge-platform/", "<title>Just a moment...</title>", "Attention Required! | Cloudflare"),
  },
  // Anyone else's captcha widget on a refusal. Conservative: a 403 or 429 without a captcha is the site's own error.
  {
    vendor: "other",
    matches: (a) => refused(a, 403, 429) && a.bodyHas("www.google.com/recaptcha/", "hcaptcha.com/1/api.js", "challenges.cloudflare.com/turnstile"),
  },
];

/** The bot protection that answered this call instead of the site, or null when the site itself answered. */
export function blockedBy(answer: { status: number; headers: RawHeaders; body?: Buffer | null }): BlockVendor | null {
  // The hot path: a page answered 200 with none of the vendors' headers is the site's, without reading anything else.
  if (!answer.body?.length && !CHALLENGE_STATUSES.has(answer.status) && !BLOCK_HEADERS.some((name) => answer.headers[name] !== undefined)) return null;
  const a = new Answer(answer.status, answer.headers, answer.body);
  for (const fingerprint of FINGERPRINTS) {
    try {
      if (fingerprint.matches(a)) return fingerprint.vendor;
    } catch {
      // A header we did not foresee never fails a warming call.
    }
  }
  return null;
}
