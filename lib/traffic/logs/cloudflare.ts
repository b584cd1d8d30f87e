import type { LineResult } from "@/lib/traffic/logs/entry";
import { agent, statusOf, text } from "@/lib/traffic/logs/entry";
import { dayOfAny } from "@/lib/traffic/logs/time";

/**
 * Cloudflare Logpush's `http_requests` dataset as JSON lines. The job chooses its fields; these
 * are read: ClientRequestMethod, ClientRequestHost, ClientRequestURI (path and query; or
 * ClientRequestPath), EdgeResponseStatus, ClientRequestUserAgent, EdgeStartTimestamp (rfc3339,
 * unix or unixnano, as the job's timestamp format says) and EdgeResponseContentType. A request a
 * Worker made (ClientRequestSource other than `eyeball`) is not a visitor's and counts as a bot.
 */

export function isCloudflare(record: Record<string, unknown>): boolean {
  return "ClientRequestMethod" in record || "ClientRequestURI" in record;
}

export function cloudflareEntry(record: Record<string, unknown>): LineResult {
  const method = text(record.ClientRequestMethod);
  const target = text(record.ClientRequestURI) ?? text(record.ClientRequestPath);
  const status = statusOf(record.EdgeResponseStatus);
  const day = dayOfAny(record.EdgeStartTimestamp) ?? dayOfAny(record.EdgeEndTimestamp);
  if (!method || !target || status === null || !day) return "broken";
  const source = text(record.ClientRequestSource);
  return {
    method,
    target,
    status,
    host: text(record.ClientRequestHost),
    userAgent: source === null || source === "eyeball" ? agent(record, "ClientRequestUserAgent") : "",
    contentType: text(record.EdgeResponseContentType),
    day,
  };
}
