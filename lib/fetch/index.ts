import { pipeline, Readable, Transform } from "node:stream";
import { pipeline as pipelineAsync } from "node:stream/promises";
import zlib from "node:zlib";
import { botUserAgent } from "./bot";
import { FetchError } from "./errors";
import { describeFailure, exchange, type ExchangeSettings, type FinalResponse } from "./exchange";

export { FetchError } from "./errors";

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 5;

export type GuardedRequestOptions = {
  headers?: Record<string, string>;
  /** Names (lower case) of more of `headers` sent to the first hop's host only, as credentials are (ExchangeSettings). */
  hostOnlyHeaders?: readonly string[];
  /** Whole request, redirects and body included. */
  timeoutMs?: number;
  /** Cap on the body: decoded for documents (a gzip bomb is cut off here), as sent for counted calls. */
  maxBytes?: number;
  maxRedirects?: number;
  /** Leave through this proxy (a region's). The address guard then runs before every hop, as it does in the direct agent. */
  proxy?: string;
};

function settingsOf(options: GuardedRequestOptions, headers: Record<string, string>): ExchangeSettings {
  return {
    headers,
    hostOnlyHeaders: options.hostOnlyHeaders,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    maxRedirects: options.maxRedirects ?? MAX_REDIRECTS,
    proxy: options.proxy,
  };
}

export type CountedResponse = FinalResponse & {
  /** Bytes of the final body as sent (not decoded). */
  bytes: number;
  /** The start of the final body as sent (not decoded), when `keepBody` asked for it; null otherwise. */
  body: Buffer | null;
};

/** How many bytes of the final body to keep, from its status and headers: 0 keeps none. */
export type KeepBody = (status: number, headers: FinalResponse["headers"]) => number;

/**
 * A warming call: the status, the headers and the body's size. The body is read to the end (a CDN
 * must see a complete response) and discarded as it arrives; nothing is buffered or decoded. The
 * caller's headers are sent as they are: warming speaks as a browser of each class.
 */
export function guardedCount(input: string | URL, options: GuardedRequestOptions & { keepBody?: KeepBody } = {}): Promise<CountedResponse> {
  return new Promise((resolve, reject) => {
    exchange(input, settingsOf(options, options.headers ?? {}), {
      start(response) {
        let bytes = 0;
        const keep = options.keepBody?.(response.status, response.headers) ?? 0;
        if (keep <= 0) {
          return {
            data: (chunk) => void (bytes += chunk.length),
            end: () => resolve({ ...response, bytes, body: null }),
            fail: reject,
          };
        }
        // Only the answers the caller asked about (e.g. challenge pages) pay for a copy, and only of their start.
        const kept: Buffer[] = [];
        let keptBytes = 0;
        return {
          data: (chunk) => {
            bytes += chunk.length;
            if (keptBytes >= keep) return;
            const part = Buffer.from(chunk.subarray(0, keep - keptBytes));
            kept.push(part);
            keptBytes += part.length;
          },
          end: () => resolve({ ...response, bytes, body: Buffer.concat(kept) }),
          fail: reject,
        };
      },
      fail: reject,
    });
  });
}

/**
 * A POST to an API as PreheatBot (an analytics tool's), its whole answer read whatever its status,
 * up to `maxBytes`. No redirect is followed: credentials go to the configured host only.
 */
export function guardedPostReading(input: string | URL, body: string, options: Omit<GuardedRequestOptions, "maxRedirects" | "proxy"> = {}): Promise<FinalResponse & { text: string }> {
  const headers = { "user-agent": botUserAgent(), ...options.headers };
  const settings = { ...settingsOf({ ...options, maxRedirects: 0 }, headers), method: "POST" as const, body };
  return new Promise((resolve, reject) => {
    exchange(input, settings, {
      start(response) {
        const chunks: Buffer[] = [];
        return { data: (chunk) => void chunks.push(Buffer.from(chunk)), end: () => resolve({ ...response, text: Buffer.concat(chunks).toString("utf8") }), fail: reject };
      },
      fail: reject,
    });
  });
}

/**
 * A POST of a small body (a webhook delivery) as PreheatBot: redirects are not followed (a 3xx is
 * a failure), and the answer's body is read to its end and discarded.
 */
export function guardedPost(input: string | URL, body: string, options: Omit<GuardedRequestOptions, "maxRedirects" | "proxy"> = {}): Promise<FinalResponse> {
  const headers = { "user-agent": botUserAgent(), ...options.headers };
  const settings = { ...settingsOf({ ...options, maxRedirects: 0, maxBytes: options.maxBytes ?? 64 * 1024 }, headers), method: "POST" as const, body };
  return new Promise((resolve, reject) => {
    exchange(input, settings, {
      start: (response) => ({ data: () => {}, end: () => resolve(response), fail: reject }),
      fail: reject,
    });
  });
}

export type GuardedResponse = FinalResponse & {
  /** The decoded (decompressed) body, capped at maxBytes. */
  body: Readable;
};

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

/**
 * A document (a sitemap, a feed, a CSV file, robots.txt, a page checked for ownership), asked for
 * as PreheatBot: the body as a stream, decoded and capped. The caller must consume or destroy
 * `body`. pipeline(), unlike pipe(), destroys every stage when one stops: the cap cutting off, a
 * decoder failing, or a consumer destroying the stream early all reach the exchange, which aborts
 * and closes its socket; one nobody reads is closed when the total timeout runs out.
 */
export function guardedRequest(input: string | URL, options: GuardedRequestOptions = {}): Promise<GuardedResponse> {
  const headers = { "user-agent": botUserAgent(), "accept-encoding": "gzip, deflate, br", ...options.headers };
  const settings = settingsOf(options, headers);
  return new Promise((resolve, reject) => {
    exchange(input, settings, {
      start(response, controller) {
        let settled = false;
        const raw = new Readable({
          read: () => controller.resume(),
          destroy(error, callback) {
            if (!settled) controller.abort(error ?? new FetchError("network", "the reader stopped"));
            settled = true;
            callback(error);
          },
        });
        const decoder = decoderFor(response.headers["content-encoding"] as string | undefined);
        const cap = sizeCap(settings.maxBytes, response.url);
        decoder?.on("error", (error) => cap.destroy(new FetchError("network", `${response.url}: invalid compressed body (${error.message})`)));
        const body = decoder ? pipeline(raw, decoder, cap, () => {}) : pipeline(raw, cap, () => {});
        resolve({ ...response, body });
        return {
          data: (chunk) => void (raw.push(chunk) || controller.pause()),
          end: () => {
            settled = true;
            raw.push(null);
          },
          fail: (error) => {
            settled = true;
            // The consumer gets the explanation, not pipeline's premature-close.
            cap.destroy(error);
          },
        };
      },
      fail: reject,
    });
  });
}

/** guardedRequest with the whole decoded body read into memory (small documents only). */
export async function guardedFetch(input: string | URL, options: GuardedRequestOptions = {}) {
  const response = await guardedRequest(input, options);
  const chunks: Buffer[] = [];
  try {
    await pipelineAsync(response.body, async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk);
    });
  } catch (error) {
    throw describeFailure(error, response.url, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  }
  return { ...response, body: Buffer.concat(chunks) };
}
