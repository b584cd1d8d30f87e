import { FetchError, guardedPostReading } from "@/lib/fetch";
import { AnalyticsError } from "./errors";

/** An answer's body larger than this is refused: a page of 10,000 rows is about 1.5 MB. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export type ApiAnswer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/**
 * A POST to an analytics API, its whole answer read (any status), through the guarded fetch layer
 * (address guard, timeout, size cap; no redirect followed, so the credentials go to the configured
 * host only). A request that got no answer is the service being unavailable.
 */
export async function postToApi(service: string, url: string, body: string, options: { headers: Record<string, string>; timeoutMs: number }): Promise<ApiAnswer> {
  try {
    const answer = await guardedPostReading(url, body, { headers: { accept: "application/json", ...options.headers }, timeoutMs: options.timeoutMs, maxBytes: MAX_ANSWER_BYTES });
    return { status: answer.status, headers: answer.headers, text: answer.text };
  } catch (error) {
    if (error instanceof FetchError) throw new AnalyticsError("unavailable", `${service} could not be read: ${error.message}.`);
    throw error;
  }
}

/** The body as JSON, or undefined when it is not JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Retry-After in seconds (delay-seconds or an HTTP date), when the answer has a usable one. */
export function retryAfterSeconds(headers: ApiAnswer["headers"], now = Date.now()): number | undefined {
  const raw = headers["retry-after"];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * An API's own words about a failure, fit for a status line: one line, at most 300 characters, and
 * without any of `secrets` (an API that echoes a key must not put it into our database or logs).
 */
export function apiWords(value: unknown, secrets: readonly string[]): string | undefined {
  if (typeof value !== "string") return undefined;
  let words = value.replace(/[\p{Cc}\s]+/gu, " ").trim();
  for (const secret of secrets) if (secret) words = words.split(secret).join("[hidden]");
  if (!words) return undefined;
  return words.length > 300 ? `${words.slice(0, 300)}…` : words;
}
