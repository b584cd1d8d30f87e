import type { Dispatcher } from "undici";
import { outboundAgent } from "./agent";
import { FetchError } from "./errors";
import { checkProxiedTarget, proxyAgent } from "./proxy";

type ResponseHeaders = Record<string, string | string[] | undefined>;

/** The final answer of an exchange, after its redirects. */
export type FinalResponse = { url: string; status: number; headers: ResponseHeaders; redirects: number };

export type ExchangeSettings = {
  headers: Record<string, string>;
  /** Names (lower case) of more of `headers` that, like credentials, go to the first hop's host only: a request profile's own headers. */
  hostOnlyHeaders?: readonly string[];
  /** Whole exchange: every hop, redirects and the final body included. */
  timeoutMs: number;
  /** Cap on the bytes of each body as sent. */
  maxBytes: number;
  maxRedirects: number;
  /** A proxy to leave through (an operator's, e.g. a region's); none: the guarded direct agent. */
  proxy?: string;
  /** GET unless told; a POST (webhook deliveries) sends `body` and is given maxRedirects 0 by its callers. */
  method?: "GET" | "POST";
  body?: string;
};

/** What takes the final body. `fail` gets every error after `start`: a cap, the timeout, a broken transfer. */
type BodyReceiver = { data(chunk: Buffer): void; end(): void; fail(error: FetchError): void };

export type ExchangeReceiver = {
  /** The final answer's status and headers arrived: what takes its body. */
  start(response: FinalResponse, controller: Dispatcher.DispatchController): BodyReceiver;
  /** The exchange failed before the final answer. */
  fail(error: FetchError): void;
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** A redirect's body is read to its end up to here (its connection goes back to the pool); past it the connection is closed. */
const REDIRECT_BODY_BYTES = 64 * 1024;

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

/** A Location that is no http(s) URL fails the exchange as invalid_url, a permanent error: asking again will not fix it. */
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

/** Any failure as a FetchError (the address guard's refusals already are: made in the connector or the proxy check). */
export function describeFailure(error: unknown, url: string, timeoutMs: number): FetchError {
  if (error instanceof FetchError) return error;
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code;
  if (err.name === "AbortError" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT") {
    return timeoutError(url, timeoutMs, { cause: error });
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new FetchError("network", `${new URL(url).hostname} could not be resolved (DNS)`, { cause: error });
  if (code === "ECONNREFUSED") return new FetchError("network", `${url}: connection refused`, { cause: error });
  return new FetchError("network", `${url}: ${err.message ?? String(error)}`, { cause: error });
}

/** Headers that carry credentials for the host they were meant for (the site's verification secret is one). */
const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "preheat-verification"]);

/**
 * A redirect to another host gets no credentials (a site's Basic auth, a profile's cookies) and none
 * of the headers the caller meant for the site alone (a profile's custom headers, which may carry a
 * token as well): they were given for the site's host, and the other host may be anyone's (as
 * browsers drop Authorization across origins, and hold cookies per domain).
 */
function withoutCredentials(headers: Record<string, string>, hostOnly: readonly string[] = []): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase()) && !hostOnly.includes(name.toLowerCase())));
}

/**
 * The one hop loop every outbound request goes through: http(s) only, the address guard on every
 * hop (in the direct agent's connector, or before each hop through a proxy, which resolves and
 * connects itself), bounded redirects (credentials and host-only headers go to the first hop's host only), one total
 * timeout, a cap on every body. Built on undici's `dispatch`: no stream unless the receiver makes
 * one, which is what lets warming count bodies at about 2.5× the rate of `request` (docs/benchmarks.md).
 */
export function exchange(input: string | URL, settings: ExchangeSettings, receiver: ExchangeReceiver): void {
  const { timeoutMs, maxBytes, maxRedirects, proxy } = settings;
  let url = parseHttpUrl(input);
  const firstHost = url.host;
  const dispatcher = proxy ? proxyAgent(proxy) : outboundAgent();
  let controller: Dispatcher.DispatchController | undefined;
  let body: BodyReceiver | undefined;
  let finished = false;
  const finish = (error?: FetchError) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    if (!error) body!.end();
    else if (body) body.fail(error);
    else receiver.fail(error);
  };
  const timer = setTimeout(() => {
    const error = timeoutError(url, timeoutMs);
    controller?.abort(error);
    finish(error);
  }, timeoutMs);

  const hop = (redirects: number) => {
    let bytes = 0;
    let next: URL | undefined;
    let done = false;
    const follow = (count: number) => {
      url = next!;
      checkedHop(count);
    };
    /** Ends this hop for good: what its controller reports afterwards is ours, not news. */
    const stop = (c: Dispatcher.DispatchController, error: FetchError) => {
      done = true;
      c.abort(error);
      finish(error);
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (finished) c.abort(timeoutError(url, timeoutMs));
      },
      onResponseStart(c, status, headers) {
        const location = headers.location;
        if (REDIRECT_STATUSES.has(status) && typeof location === "string") {
          if (redirects >= maxRedirects) {
            const why = maxRedirects ? `redirected more than ${maxRedirects} times` : `answered ${status} (a redirect, which is not followed)`;
            return stop(c, new FetchError("too_many_redirects", `${input} ${why}`));
          }
          try {
            next = redirectTarget(location, url);
          } catch (error) {
            stop(c, error as FetchError);
          }
          return;
        }
        body = receiver.start({ url: url.toString(), status, headers: headers as ResponseHeaders, redirects }, c);
      },
      onResponseData(c, chunk) {
        if (done) return;
        bytes += chunk.length;
        if (next && bytes > REDIRECT_BODY_BYTES) {
          done = true;
          c.abort(new FetchError("network", "redirect body abandoned"));
          return follow(redirects + 1);
        }
        if (bytes > maxBytes) return stop(c, new FetchError("too_large", `${url} is larger than ${maxBytes} bytes`));
        if (!next) body!.data(chunk);
      },
      onResponseEnd() {
        if (done) return;
        done = true;
        if (next) return follow(redirects + 1);
        finish();
      },
      onResponseError(_c, error) {
        if (done) return;
        done = true;
        finish(describeFailure(error, url.toString(), timeoutMs));
      },
    };
    try {
      // A copy through a proxy: undici's ProxyAgent writes `host` into the headers it is given.
      const sent = url.host === firstHost ? settings.headers : withoutCredentials(settings.headers, settings.hostOnlyHeaders);
      const headers = proxy ? { ...sent } : sent;
      const { method = "GET", body: requestBody } = settings;
      dispatcher.dispatch({ origin: url.origin, path: url.pathname + url.search, method, headers, body: requestBody, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }, handler);
    } catch (error) {
      finish(describeFailure(error, url.toString(), timeoutMs));
    }
  };

  const checkedHop = (redirects: number) => {
    if (finished) return;
    if (!proxy) return hop(redirects);
    checkProxiedTarget(url).then(
      () => (finished ? undefined : hop(redirects)),
      (error: unknown) => finish(describeFailure(error, url.toString(), timeoutMs)),
    );
  };
  checkedHop(0);
}
