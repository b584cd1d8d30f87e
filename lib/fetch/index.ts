import { pipeline, Readable, Transform } from "node:stream";
import { pipeline as pipelineAsync } from "node:stream/promises";
import zlib from "node:zlib";
import { type Dispatcher, request } from "undici";
import { outboundAgent } from "./agent";
import { FetchError } from "./errors";

export { FetchError } from "./errors";

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const MAX_REDIRECTS = 5;

export type GuardedRequestOptions = {
  headers?: Record<string, string>;
  /** Whole request, redirects and body included. */
  timeoutMs?: number;
  /** Cap on the decoded body: a gzip bomb is cut off here. */
  maxBytes?: number;
  maxRedirects?: number;
  /** Another egress (a region's proxy); the default is the guarded direct agent. */
  dispatcher?: Dispatcher;
  /**
   * Runs before every hop, redirects included, and refuses one by throwing. A proxy resolves and
   * connects itself, out of reach of the agent's address guard: its caller checks each target here.
   */
  beforeHop?: (url: URL) => Promise<void>;
  /** false: the body is passed on as sent (warming only counts it), no Accept-Encoding is added. */
  decode?: boolean;
};

export type GuardedResponse = {
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  redirects: number;
  /** The decoded (decompressed) body, capped at maxBytes. */
  body: Readable;
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function parseHttpUrl(input: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new FetchError("invalid_url", `${String(input)} is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new FetchError("invalid_url", `${url.protocol} URLs are not fetched`);
  return url;
}

/**
 * Where a redirect leads. A Location that is no http(s) URL fails the request as invalid_url, a
 * permanent error: asking again will not fix it. (Parsed outside parseHttpUrl, it failed as a
 * network error, and was retried.)
 */
function redirectTarget(location: string, from: URL): URL {
  try {
    return parseHttpUrl(location, from);
  } catch {
    throw new FetchError("invalid_url", `${from} redirected to ${JSON.stringify(location.slice(0, 200))}, which is not an http(s) URL`);
  }
}

function timeoutError(url: URL | string, timeoutMs: number, options?: { cause?: unknown }): FetchError {
  return new FetchError("timeout", `${url} did not answer within ${timeoutMs / 1000} s`, options);
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

export function sizeCap(maxBytes: number, url: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) return done(new FetchError("too_large", `${url} is larger than ${maxBytes} bytes (after decompression)`));
      done(null, chunk);
    },
  });
}

function describe(error: unknown, url: string, timeoutMs: number): FetchError {
  // The address guard's refusals are FetchErrors already (made in the agent's connector).
  if (error instanceof FetchError) return error;
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code;
  const message = err.message ?? String(error);
  if (err.name === "AbortError" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT") {
    return timeoutError(url, timeoutMs, { cause: error });
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new FetchError("network", `${new URL(url).hostname} could not be resolved (DNS)`, { cause: error });
  if (code === "ECONNREFUSED") return new FetchError("network", `${url}: connection refused`, { cause: error });
  return new FetchError("network", `${url}: ${message}`, { cause: error });
}

/**
 * The response body, decoded and capped. pipeline(), unlike pipe(), destroys every stage when one
 * stops: the cap cutting off, a decoder failing, or a consumer destroying the stream early all
 * reach undici's body, which aborts the request and closes its socket. (With pipe(), such a socket
 * stayed open and unread, holding one of the origin's pooled connections for good.)
 */
function cappedBody(response: Dispatcher.ResponseData, url: string, options: { maxBytes: number; timeoutMs: number; decode: boolean }, done: () => void): Readable {
  const decoder = options.decode ? decoderFor(response.headers["content-encoding"] as string | undefined) : undefined;
  const cap = sizeCap(options.maxBytes, url);
  // Listening before pipeline() does: the consumer gets these explanations, not the raw errors.
  response.body.on("error", (error) => cap.destroy(describe(error, url, options.timeoutMs)));
  if (!decoder) return pipeline(response.body, cap, done);
  decoder.on("error", (error) => cap.destroy(new FetchError("network", `${url}: invalid compressed body (${error.message})`)));
  return pipeline(response.body, decoder, cap, done);
}

/**
 * The one way the service requests a customer's URL: address guard on every hop, bounded
 * redirects, total timeout, decoded size cap. The caller must consume or destroy `body`; one it
 * leaves alone is destroyed, and its connection closed, when the total timeout runs out.
 */
export async function guardedRequest(input: string | URL, options: GuardedRequestOptions = {}): Promise<GuardedResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const decode = options.decode !== false;
  let url = parseHttpUrl(input);
  const controller = new AbortController();
  // Aborting also destroys a body already handed out, which closes its socket.
  const timer = setTimeout(() => controller.abort(timeoutError(url, timeoutMs)), timeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      await options.beforeHop?.(url);
      const response = await request(url, {
        method: "GET",
        dispatcher: options.dispatcher ?? outboundAgent(),
        headers: decode ? { "accept-encoding": "gzip, deflate, br", ...options.headers } : options.headers,
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode) && typeof location === "string") {
        // Read to the end, the connection goes back to the pool; past dump()'s limit (128 KiB) it is closed.
        await response.body.dump();
        if (redirects >= maxRedirects) throw new FetchError("too_many_redirects", `${input} redirected more than ${maxRedirects} times`);
        url = redirectTarget(location, url);
        continue;
      }
      const body = cappedBody(response, url.toString(), { maxBytes, timeoutMs, decode }, () => clearTimeout(timer));
      return { url: url.toString(), status: response.statusCode, headers: response.headers, redirects, body };
    }
  } catch (error) {
    clearTimeout(timer);
    throw describe(error, url.toString(), timeoutMs);
  }
}

export type CountedResponse = {
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  redirects: number;
  /** Bytes of the final body as sent (not decoded). */
  bytes: number;
};

/**
 * guardedRequest for callers that only need the status, the headers and the body's size (warming):
 * the same guards (http/https only, the address guard in the agent's connector on every hop,
 * bounded redirects, total timeout, size cap) on undici's `dispatch`, with no body stream. The
 * body is read to the end and discarded as it arrives. About 2.5× the rate of `request` on one
 * core (DESIGN.md, "Warming calls"; docs/benchmarks.md).
 */
export function guardedCount(input: string | URL, options: Omit<GuardedRequestOptions, "decode"> = {}): Promise<CountedResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let url: URL;
  try {
    url = parseHttpUrl(input);
  } catch (error) {
    return Promise.reject(error);
  }
  const dispatcher = options.dispatcher ?? outboundAgent();
  return new Promise<CountedResponse>((resolve, reject) => {
    let settled = false;
    let controller: Dispatcher.DispatchController | undefined;
    const settle = (error: unknown, response?: CountedResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (response) resolve(response);
      else reject(describe(error, url.toString(), timeoutMs));
    };
    const timer = setTimeout(() => {
      const error = timeoutError(url, timeoutMs);
      controller?.abort(error);
      settle(error);
    }, timeoutMs);
    const hop = (redirects: number) => {
      let status = 0;
      let headers: Record<string, string | string[] | undefined> = {};
      let bytes = 0;
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c;
          if (settled) c.abort(timeoutError(url, timeoutMs));
        },
        onResponseStart(_c, statusCode, responseHeaders) {
          status = statusCode;
          headers = responseHeaders as Record<string, string | string[] | undefined>;
        },
        onResponseData(c, chunk) {
          bytes += chunk.length;
          if (bytes > maxBytes) c.abort(new FetchError("too_large", `${url} is larger than ${maxBytes} bytes`));
        },
        onResponseEnd() {
          if (settled) return;
          const location = headers.location;
          if (REDIRECT_STATUSES.has(status) && typeof location === "string") {
            if (redirects >= maxRedirects) return settle(new FetchError("too_many_redirects", `${input} redirected more than ${maxRedirects} times`));
            try {
              url = redirectTarget(location, url);
            } catch (error) {
              return settle(error);
            }
            return checkedHop(redirects + 1);
          }
          settle(undefined, { url: url.toString(), status, headers, redirects, bytes });
        },
        onResponseError(_c, error) {
          settle(error);
        },
      };
      try {
        dispatcher.dispatch(
          { origin: url.origin, path: url.pathname + url.search, method: "GET", headers: options.headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
          handler,
        );
      } catch (error) {
        settle(error);
      }
    };
    const checkedHop = (redirects: number) => {
      if (!options.beforeHop) return hop(redirects);
      options.beforeHop(url).then(
        () => (settled ? undefined : hop(redirects)),
        (error) => settle(error),
      );
    };
    checkedHop(0);
  });
}

/** guardedRequest with the whole decoded body read into memory (small documents only). */
export async function guardedFetch(input: string | URL, options: GuardedRequestOptions = {}) {
  const response = await guardedRequest(input, options);
  const chunks: Buffer[] = [];
  try {
    await pipelineAsync(response.body, async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) chunks.push(chunk);
    });
  } catch (error) {
    throw describe(error, response.url, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  }
  return { ...response, body: Buffer.concat(chunks) };
}
