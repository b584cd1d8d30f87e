import type { TrafficReadCounts } from "@/lib/core/traffic";
import { isAssetPath, isAssetType } from "@/lib/traffic/logs/assets";
import { isBot } from "@/lib/traffic/logs/bots";
import { readClfLine } from "@/lib/traffic/logs/clf";
import { CloudFrontReader } from "@/lib/traffic/logs/cloudfront";
import type { LineResult } from "@/lib/traffic/logs/entry";
import { readJsonLine } from "@/lib/traffic/logs/json";
import { GzipDamage, linesOf } from "@/lib/traffic/logs/lines";
import { normaliseHost, parseTarget } from "@/lib/traffic/logs/path";
import { BoundedTally } from "@/lib/traffic/logs/tally";

/**
 * An access log read into visits per day and path, for the popularity table (docs/guide/site-owners/traffic-logs.md):
 * the Combined and Common Log Formats, JSON lines (nginx escape=json, Caddy, Cloudflare Logpush,
 * CloudFront v2) and CloudFront's standard log, recognised line by line. Only successful GETs of
 * the site's own pages by people count; every other line is counted as broken or by why it was
 * left out. Pure: bytes in, counts out.
 */

export type AccessLogOptions = {
  /** The site's domain (e.g. "shop.example.com"); `www.` + domain and the domain without `www.` count as the site's own host. Lines without a host (CLF) count as the site's. */
  domain: string;
  /** Whether a path's query string is kept (the site's sitemaps or URL templates keep one for that path); otherwise the query is dropped and the visit counts for the bare path. Receives the path without query. */
  keepsQuery: (path: string) => boolean;
  /** Most distinct day×path keys held at once (the memory bound); default LOG_MAX_KEYS. Past it, the least-counted keys are evicted and counts.truncated = true. */
  maxKeys?: number;
};

export type AccessLogRead = {
  /** day (YYYY-MM-DD, UTC) → path → visits */
  visits: Map<string, Map<string, number>>;
  counts: TrafficReadCounts;
};

/** 200,000 day × path keys: about 40 MB of strings and map entries, 30 days of 6,000 pages. */
export const LOG_MAX_KEYS = 200_000;

/** Answers of keepsQuery kept: the pages with a query that come back often. */
const KEEPS_QUERY_CACHED = 10_000;

/** Thrown when not one line could be read as any format (the upload's 4xx says its message). */
export class AccessLogError extends Error {}

const SUCCESS = (status: number) => (status >= 200 && status < 300) || status === 304;

/** The site's host and its www. twin, as normaliseHost spells hosts. */
function ownHosts(domain: string): Set<string> {
  const bare = normaliseHost(domain).replace(/^www\./, "");
  return new Set([bare, `www.${bare}`]);
}

/** Reads the whole body once, line by line, gunzipping when it starts with gzip's magic bytes. */
export async function readAccessLog(body: AsyncIterable<Uint8Array>, options: AccessLogOptions): Promise<AccessLogRead> {
  const hosts = ownHosts(options.domain);
  const tally = new BoundedTally(Math.max(1, Math.floor(options.maxKeys ?? LOG_MAX_KEYS)));
  const counts: TrafficReadCounts = { lines: 0, counted: 0, broken: 0, paths: 0, skipped: { method: 0, status: 0, host: 0, asset: 0, bot: 0 }, format: null, truncated: false };
  const formats = new Map<string, number>();
  const cloudFront = new CloudFrontReader();
  const keepsQuery = new Map<string, boolean>();

  const count = (entry: LineResult) => {
    if (entry === "broken") return void counts.broken++;
    if (entry.method !== "GET") return void counts.skipped.method++;
    if (!SUCCESS(entry.status)) return void counts.skipped.status++;
    const target = parseTarget(entry.target);
    if (!target) return void counts.broken++;
    const host = target.host ?? entry.host;
    if (host !== null && !hosts.has(normaliseHost(host))) return void counts.skipped.host++;
    if (isAssetPath(target.path) || (entry.contentType !== null && isAssetType(entry.contentType))) return void counts.skipped.asset++;
    if (isBot(entry.userAgent)) return void counts.skipped.bot++;
    let key = target.path;
    if (target.query !== "") {
      let keep = keepsQuery.get(target.path);
      if (keep === undefined) {
        keep = options.keepsQuery(target.path);
        // Asked once per path while it is cached; the cache is small, since it sits beside the tally's bound.
        if (keepsQuery.size >= KEEPS_QUERY_CACHED) keepsQuery.clear();
        keepsQuery.set(target.path, keep);
      }
      if (keep) key = `${target.path}?${target.query}`;
    }
    tally.add(entry.day, key);
    counts.counted++;
  };

  try {
    for await (const line of linesOf(body)) {
      if (line === "overlong" || line === "binary") {
        counts.lines++;
        counts.broken++;
        continue;
      }
      const first = line.charCodeAt(0);
      if (line.trim() === "") continue;
      if (first === 0x23) {
        // W3C directives (#Version, #Fields: …) describe the lines after them; they are not requests.
        if (line.startsWith("#Fields:")) cloudFront.setFields(line.slice(8));
        continue;
      }
      counts.lines++;
      let format: string;
      let result: LineResult;
      if (first === 0x7b) ({ format, result } = readJsonLine(line));
      else if (/^\d{4}-\d{2}-\d{2}\t/.test(line)) {
        format = "cloudfront";
        result = cloudFront.readLine(line);
      } else ({ format, result } = readClfLine(line));
      if (result !== "broken") formats.set(format, (formats.get(format) ?? 0) + 1);
      count(result);
    }
  } catch (error) {
    if (!(error instanceof GzipDamage)) throw error;
    // The damaged end is one broken line: what came before it is kept.
    counts.lines++;
    counts.broken++;
  }

  if (counts.lines === counts.broken) {
    throw new AccessLogError(
      counts.lines === 0
        ? "The log is empty: no line to read."
        : `No line of the log could be read as an access log (Combined or Common Log Format, JSON lines, CloudFront): ${counts.lines} lines, all broken.`,
    );
  }
  const { visits, paths } = tally.result();
  counts.paths = paths;
  counts.truncated = tally.truncated;
  // The format most lines were read as: a log is one format, with a few odd lines.
  counts.format = [...formats].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return { visits, counts };
}
