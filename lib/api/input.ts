import { z } from "zod";
import { RequestError } from "./errors";
import { fieldErrors, summarise } from "./validation";

/** Large enough for 5,000 long URLs in one warm request. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export async function readBodyText(request: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new RequestError(413, `Request body is too large: the limit is ${maxBytes} bytes.`);
  if (!request.body) return "";
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
  return Buffer.concat(chunks).toString("utf8");
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

/** The body read by readBodyText, parsed as JSON and by `schema`. */
export function parseBody<T extends z.ZodType>(text: string, schema: T): z.output<T> {
  let data: unknown = {};
  if (text.trim()) {
    try {
      data = JSON.parse(text);
    } catch {
      throw new RequestError(400, "Request body is not valid JSON.");
    }
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new RequestError(422, "Request body must be a JSON object.");
  const withNul = text.includes("\\u0000") ? pathOfNul(data) : undefined;
  if (withNul !== undefined) throw new RequestError(422, `${withNul || "body"}: must not contain NUL characters (\\u0000)`, [{ field: withNul, message: "must not contain NUL characters" }]);
  const result = schema.safeParse(data);
  if (!result.success) throw validationFailed(result.error);
  return result.data;
}

export function parseQuery<T extends z.ZodType>(request: Request, schema: T): z.output<T> {
  const params = new URL(request.url).searchParams;
  const data: Record<string, string> = {};
  for (const key of new Set(params.keys())) data[key] = params.get(key)!;
  const result = schema.safeParse(data);
  if (!result.success) throw validationFailed(result.error);
  return result.data;
}

export function parseParams<T extends z.ZodType>(params: Record<string, string | string[]>, schema: T): z.output<T> {
  const result = schema.safeParse(params);
  if (!result.success) {
    const details = fieldErrors(result.error);
    throw new RequestError(422, summarise(details), details);
  }
  return result.data;
}

/** A positive integer in a path or query string, e.g. `/v1/sites/{id}`. */
export const idString = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, "must be a positive integer")
  .transform(Number)
  .refine((n) => n <= 2_147_483_647, "is out of range")
  .meta({ type: "integer", minimum: 1, maximum: 2_147_483_647 } as Record<string, unknown>);
