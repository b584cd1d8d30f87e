import type { LineResult } from "@/lib/traffic/logs/entry";
import { statusOf, text } from "@/lib/traffic/logs/entry";
import { dayOfAny } from "@/lib/traffic/logs/time";

/**
 * Caddy's default access log (`log` in a site block): one JSON object per request, the request
 * under `request` (`method`, `host`, `uri`, `headers` whose values are lists), `status`, `ts` in
 * Unix seconds (or a string when `time_format` is set) and the response's `resp_headers`.
 */

function header(headers: unknown, name: string): string | null {
  if (!headers || typeof headers !== "object") return null;
  const values = (headers as Record<string, unknown>)[name];
  return Array.isArray(values) ? text(values[0]) : text(values);
}

export function isCaddy(record: Record<string, unknown>): boolean {
  const request = record.request;
  return !!request && typeof request === "object" && "method" in request;
}

export function caddyEntry(record: Record<string, unknown>): LineResult {
  const request = record.request as Record<string, unknown>;
  const method = text(request.method);
  const target = text(request.uri);
  const status = statusOf(record.status);
  const day = dayOfAny(record.ts);
  if (!method || !target || status === null || !day) return "broken";
  return {
    method,
    target,
    status,
    host: text(request.host),
    // Caddy logs every request header: no User-Agent among them is a request without one.
    userAgent: header(request.headers, "User-Agent") ?? "",
    contentType: header(record.resp_headers, "Content-Type"),
    day,
  };
}
