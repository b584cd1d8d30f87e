import type { z } from "zod";
import { RequestError } from "./errors";
import { fieldErrors, summarise } from "@/lib/core/field-errors";

/** Large enough for 5,000 long URLs in one warm request. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export async function readBodyText(request: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  return Buffer.from(await readBodyBytes(request, maxBytes)).toString("utf8");
}

/** The body's bytes as sent (a signature is over these), refused with 413 past `maxBytes` without reading further. */
export async function readBodyBytes(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new RequestError(413, `Request body is too large: the limit is ${maxBytes} bytes.`);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new RequestError(413, `Request body is too large: the limit is ${maxBytes} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * The body's bytes as they arrive, never held whole (an uploaded log of a gigabyte), refused with 413
 * once past `maxBytes`: at once when Content-Length says so, else as soon as the count passes it.
 */
export async function* streamedBody(request: Request, maxBytes: number): AsyncGenerator<Uint8Array> {
  const tooLarge = () => new RequestError(413, `Request body is too large: the limit is ${maxBytes.toLocaleString("en")} bytes.`);
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  if (!request.body) return;
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    yield chunk;
  }
}

export function validationFailed(error: z.ZodError, prefix?: string): RequestError {
  const details = fieldErrors(error, prefix);
  return new RequestError(422, summarise(details), details);
}

/** The path of the first string holding NUL, which PostgreSQL text cannot store; undefined if none. */
function pathOfNul(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return value.includes("\0") ? path : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (key.includes("\0")) return itemPath;
    const found = pathOfNul(item, itemPath);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * How deep a JSON body may nest its arrays and objects. No request needs more than a few levels,
 * and what walks a parsed value (validation, the NUL check, idempotency fingerprints) recurses:
 * 50,000 levels would overflow the stack and answer 500.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether `text` nests arrays and objects deeper than `limit`, found by counting brackets outside
 * strings, without parsing or recursing: what is refused never reaches the code that would recurse.
 */
export function nestsTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The refusal of a body nested deeper than MAX_JSON_DEPTH (422 validation_failed), the same for every operation and MCP tool. */
export function tooDeepError(): RequestError {
  const message = `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;
  return new RequestError(422, `Request body: ${message}.`, [{ field: "body", message }]);
}

/** Refuses a value holding NUL, which PostgreSQL text cannot store (it would fail the query, a 500), naming where it is. */
function refuseNul(data: unknown): void {
  const withNul = pathOfNul(data);
  if (withNul !== undefined) throw new RequestError(422, `${withNul || "body"}: must not contain NUL characters (\\u0000)`, [{ field: withNul, message: "must not contain NUL characters" }]);
}

/** The body read by readBodyText, parsed as JSON and by `schema`. */
export function parseBody<T extends z.ZodType>(text: string, schema: T): z.output<T> {
  let data: unknown = {};
  if (text.trim()) {
    if (nestsTooDeep(text)) throw tooDeepError();
    try {
      data = JSON.parse(text);
    } catch {
      throw new RequestError(400, "Request body is not valid JSON.");
    }
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new RequestError(422, "Request body must be a JSON object.");
  if (text.includes("\\u0000")) refuseNul(data);
  const result = schema.safeParse(data);
  if (!result.success) throw validationFailed(result.error);
  return result.data;
}

export function parseQuery<T extends z.ZodType>(request: Request, schema: T): z.output<T> {
  const params = new URL(request.url).searchParams;
  const data: Record<string, string> = {};
  for (const key of new Set(params.keys())) data[key] = params.get(key)!;
  refuseNul(data);
  const result = schema.safeParse(data);
  if (!result.success) throw validationFailed(result.error);
  return result.data;
}

export function parseParams<T extends z.ZodType>(params: Record<string, string | string[]>, schema: T): z.output<T> {
  refuseNul(params);
  const result = schema.safeParse(params);
  if (!result.success) {
    const details = fieldErrors(result.error);
    throw new RequestError(422, summarise(details), details);
  }
  return result.data;
}
