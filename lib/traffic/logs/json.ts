import { caddyEntry, isCaddy } from "@/lib/traffic/logs/caddy";
import { cloudflareEntry, isCloudflare } from "@/lib/traffic/logs/cloudflare";
import { cloudFrontEntry } from "@/lib/traffic/logs/cloudfront";
import type { LineResult } from "@/lib/traffic/logs/entry";
import { agent, statusOf, text } from "@/lib/traffic/logs/entry";
import { dayOfAny } from "@/lib/traffic/logs/time";

/**
 * JSON lines: Caddy's, Cloudflare's and CloudFront's (standard logging v2) records are told apart
 * by their own field names; anything else is read as nginx `log_format ... escape=json`, whose keys
 * the owner chose: the usual ones are the nginx variables' names, so those are accepted, first
 * found first.
 */

type JsonFormat = "json" | "caddy" | "cloudflare" | "cloudfront";

function first(record: Record<string, unknown>, keys: readonly string[]): unknown {
  for (const key of keys) {
    const value = record[key];
    if (value !== undefined && value !== null && value !== "" && value !== "-") return value;
  }
  return undefined;
}

const METHOD = ["request_method", "method"];
const URI = ["request_uri", "uri", "url", "path"];
const ARGS = ["args", "query_string"];
const REQUEST = ["request"];
const STATUS = ["status", "status_code", "response_status"];
const USER_AGENT = ["http_user_agent", "user_agent", "useragent", "agent"];
const HOST = ["host", "http_host", "server_name", "hostname"];
const TIME = ["time_iso8601", "time_local", "msec", "@timestamp", "timestamp", "time"];
const CONTENT_TYPE = ["sent_http_content_type", "upstream_http_content_type", "response_content_type"];

function nginxEntry(record: Record<string, unknown>): LineResult {
  let method = text(first(record, METHOD));
  let target = text(first(record, URI));
  if (target !== null && !("request_uri" in record)) {
    // $uri is the path alone: its query is in $args.
    const args = text(first(record, ARGS));
    if (args && !target.includes("?")) target = `${target}?${args}`;
  }
  const request = text(first(record, REQUEST));
  if ((!method || !target) && request) {
    // $request: "GET /path?query HTTP/1.1".
    const parts = request.split(" ");
    method ??= parts[0] ?? null;
    target ??= parts.length > 2 ? parts.slice(1, -1).join(" ") : (parts[1] ?? null);
  }
  const status = statusOf(first(record, STATUS));
  const day = dayOfAny(first(record, TIME));
  if (!method || !target || status === null || !day) return "broken";
  return {
    method,
    target,
    status,
    host: text(first(record, HOST)),
    userAgent: agent(record, USER_AGENT.find((key) => key in record) ?? USER_AGENT[0]!),
    contentType: text(first(record, CONTENT_TYPE)),
    day,
  };
}

export function readJsonLine(line: string): { format: JsonFormat; result: LineResult } {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return { format: "json", result: "broken" };
  }
  if (!record || typeof record !== "object" || Array.isArray(record)) return { format: "json", result: "broken" };
  const fields = record as Record<string, unknown>;
  if (isCaddy(fields)) return { format: "caddy", result: caddyEntry(fields) };
  if (isCloudflare(fields)) return { format: "cloudflare", result: cloudflareEntry(fields) };
  if ("cs-method" in fields) return { format: "cloudfront", result: cloudFrontEntry((name) => (name in fields ? (text(fields[name]) ?? "") : null)) };
  return { format: "json", result: nginxEntry(fields) };
}
