import { randomUUID } from "node:crypto";

/**
 * The HTTP side of the CLI's integrator commands: plain fetch to `${baseUrl}/v1…` with the key as
 * a bearer token. It rides out what a deploy pipeline meets (a server restarting, a rate limit)
 * and turns every other refusal into an ApiError carrying the API's own sentence.
 */

/** The API refused the request (`status` set), or could not be reached (`status` undefined). */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;

  constructor(message: string, status?: number, code?: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

export type ApiClient = {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
};

export type ApiClientOptions = {
  baseUrl: string;
  key: string;
  /** Waits between attempts; tests shorten it. */
  sleep?: (ms: number) => Promise<void>;
  /** Attempts per request (the first included) when the server is unreachable, restarting or rate-limiting. */
  attempts?: number;
};

const REQUEST_TIMEOUT_MS = 30_000;
/** A longer Retry-After (a site's daily run cap) is a refusal to report, not a pause to sit through. */
const LONGEST_RETRY_AFTER_SECONDS = 60;
/** Answers of a server being deployed or restarted behind its proxy. */
const UNAVAILABLE = new Set([502, 503, 504]);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type ErrorBody = { error?: unknown; code?: unknown };

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The API's own sentence; an answer without one (a proxy's error page) is named by its request and status. */
function refusal(request: string, response: Response, body: unknown): ApiError {
  const { error, code } = (body && typeof body === "object" ? body : {}) as ErrorBody;
  const message = typeof error === "string" && error ? error : `${request} answered HTTP ${response.status} ${response.statusText}`.trim();
  return new ApiError(message, response.status, typeof code === "string" ? code : undefined);
}

/** Seconds to wait before asking again, or undefined when the answer is final. */
function retryDelaySeconds(response: Response, code: string | undefined, attempt: number): number | undefined {
  if (response.status === 429 && code === "rate_limited") {
    const asked = Number(response.headers.get("retry-after"));
    const seconds = Number.isFinite(asked) && asked >= 0 ? asked : 1;
    return seconds <= LONGEST_RETRY_AFTER_SECONDS ? Math.max(seconds, 1) : undefined;
  }
  // The first attempt with this Idempotency-Key is still being answered (a retry after a lost answer).
  if (response.status === 409 && code === "idempotency_in_progress") return 1;
  if (UNAVAILABLE.has(response.status)) return 2 ** attempt;
  return undefined;
}

export function apiClient({ baseUrl, key, sleep: wait = sleep, attempts = 5 }: ApiClientOptions): ApiClient {
  async function request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    // One key for every attempt: a retried POST whose first answer was lost starts nothing twice.
    if (method === "POST") headers["idempotency-key"] = randomUUID();
    const url = `${baseUrl}/v1${path}`;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      } catch (error) {
        if (attempt >= attempts || !isTransient(error)) throw new ApiError(`Could not reach ${baseUrl}: ${reasonOf(error)}.`);
        await wait(2 ** attempt * 500);
        continue;
      }
      const parsed = await readJson(response);
      if (response.ok) {
        if (typeof parsed !== "object") throw new ApiError(`${method} ${url} did not answer JSON: is PREHEAT_API_URL the address of a Preheat?`, response.status);
        return parsed as T;
      }
      const error = refusal(`${method} ${url}`, response, parsed);
      const delay = retryDelaySeconds(response, error.code, attempt);
      if (delay === undefined || attempt >= attempts) throw error;
      await wait(delay * 1000);
    }
  }
  return {
    get: (path) => request("GET", path),
    post: (path, body) => request("POST", path, body),
  };
}

/** A server restarting or briefly out of reach; an unknown host or a bad certificate will not get better. */
const TRANSIENT_CAUSES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EAI_AGAIN", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"]);

function isTransient(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return (error as Error).name === "TimeoutError" || (code !== undefined && TRANSIENT_CAUSES.has(code));
}

/** fetch's own message ("fetch failed") hides the useful part in its cause (ECONNREFUSED, ENOTFOUND…). */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === "TimeoutError") return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
