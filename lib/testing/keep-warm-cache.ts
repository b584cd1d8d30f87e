import http from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";

/**
 * What keep-warm is measured against (issue 57, item 4): Varnish caches in front of a local origin
 * whose pages say their shared-cache lifetime three ways, and visitors who never fill the cache
 * themselves, so that every hit they get is the warmer's. Shared by `npm run bench -- keep-warm` and
 * the cache suite's shorter check (e2e/cache/keep-warm.test.ts).
 */

/** The header every visitor sends: the VCL fetches a visitor's miss without storing it. */
const VISITOR_HEADER = "x-bench-visitor";

/** How a page tells the cache its lifetime: RFC 9111's `s-maxage`, RFC 9213's `CDN-Cache-Control`, or `Expires`. */
export type LifetimeField = "s-maxage" | "cdn-cache-control" | "expires";

export type CachePage = { path: string; lifetimeSeconds: number; field: LifetimeField };

/**
 * Varnish configuration for the bench's caches, keyed on the URL and host only (one copy serves every
 * visitor). `staleWhileRevalidate` false: the standard cache, where an object lives exactly its
 * lifetime (no grace, no keep). True: grace is the governing field's `stale-while-revalidate`, so a
 * stale copy is served as a hit while a request refreshes it in the background. Set here rather than
 * left to varnishd's default, which reads it from Cache-Control only and not in every version.
 * CDN-Cache-Control, when present, replaces Cache-Control and Expires for this cache (RFC 9213 §2.2):
 * varnishd knows nothing of it, so its lifetime is read here.
 */
export function keepWarmVcl(originPort: number, options: { staleWhileRevalidate: boolean }): string {
  const grace = options.staleWhileRevalidate
    ? `
  if (beresp.http.X-Directives ~ "(?i)stale-while-revalidate=[0-9]+") {
    set beresp.grace = std.duration(regsub(beresp.http.X-Directives, "(?i)^.*stale-while-revalidate=([0-9]+).*$", "\\1") + "s", 0s);
  } else {
    set beresp.grace = 0s;
  }`
    : `
  set beresp.grace = 0s;`;
  return `vcl 4.1;
import std;

backend origin {
  .host = "127.0.0.1";
  .port = "${originPort}";
}

sub vcl_recv {
  # Only the pages are cached: the ownership token file and the URL list go straight to the origin.
  if (req.url !~ "^/p/") {
    return (pass);
  }
  unset req.http.Cookie;
  return (hash);
}

sub vcl_hash {
  hash_data(req.url);
  hash_data(req.http.host);
  return (lookup);
}

sub vcl_miss {
  # A visitor's miss is fetched for them and not stored: only the warmer fills the cache.
  if (req.http.${VISITOR_HEADER}) {
    return (pass);
  }
}

sub vcl_backend_fetch {
  # A visitor's hit on a stale copy (grace) would refresh it in the background: the visitor would
  # fill the cache. The refresh is left to the warmer.
  if (bereq.is_bgfetch && bereq.http.${VISITOR_HEADER}) {
    return (abandon);
  }
}

sub vcl_backend_response {
  set beresp.http.X-Directives = beresp.http.Cache-Control;
  if (beresp.http.CDN-Cache-Control) {
    set beresp.http.X-Directives = beresp.http.CDN-Cache-Control;
    if (beresp.http.CDN-Cache-Control ~ "(?i)(no-store|private)") {
      set beresp.ttl = 0s;
    } elsif (beresp.http.CDN-Cache-Control ~ "(?i)s-maxage=[0-9]+") {
      set beresp.ttl = std.duration(regsub(beresp.http.CDN-Cache-Control, "(?i)^.*s-maxage=([0-9]+).*$", "\\1") + "s", 0s);
    } elsif (beresp.http.CDN-Cache-Control ~ "(?i)max-age=[0-9]+") {
      set beresp.ttl = std.duration(regsub(beresp.http.CDN-Cache-Control, "(?i)^.*max-age=([0-9]+).*$", "\\1") + "s", 0s);
    } else {
      set beresp.ttl = 0s;
    }
  }
  ${grace}
  set beresp.keep = 0s;
  unset beresp.http.X-Directives;
  if (beresp.ttl <= 0s) {
    set beresp.uncacheable = true;
  }
  # Not the built-in rules: they would refuse the CDN-Cache-Control pages for their max-age=0.
  return (deliver);
}

sub vcl_deliver {
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
}
`;
}

/** The headers of a page living its lifetime in a shared cache, said through its field; with `swr`, a `stale-while-revalidate` window as long as the lifetime. */
function pageHeaders(page: CachePage, swr: boolean, now = Date.now()): Record<string, string> {
  const window = swr ? `, stale-while-revalidate=${page.lifetimeSeconds}` : "";
  switch (page.field) {
    case "s-maxage":
      return { "cache-control": `public, max-age=0, s-maxage=${page.lifetimeSeconds}${window}` };
    case "cdn-cache-control":
      // Browsers revalidate; the CDN keeps it: what RFC 9213 is for.
      return { "cache-control": "public, max-age=0", "cdn-cache-control": `max-age=${page.lifetimeSeconds}${window}` };
    case "expires":
      return { "cache-control": `public${window}`, expires: new Date(Math.floor(now / 1000) * 1000 + page.lifetimeSeconds * 1000).toUTCString() };
  }
}

export type KeepWarmOrigin = {
  port: number;
  /** What `host` serves: its ownership token file, its pages, and `/urls.csv` listing them; `swr`: the pages allow stale-while-revalidate. */
  serve: (host: string, site: { token?: string; pages: CachePage[]; swr: boolean }) => void;
  /** When the warmer's requests for `host` reached the origin (epoch ms), by path: each is a copy the cache stored. */
  warmerFetches: (host: string) => Map<string, number[]>;
  close: () => Promise<void>;
};

/** The origin behind every cache: pages answered at once, with the Date header a real server sends. */
export async function startKeepWarmOrigin(): Promise<KeepWarmOrigin> {
  const sites = new Map<string, { token?: string; pages: Map<string, CachePage>; swr: boolean }>();
  const fetches = new Map<string, Map<string, number[]>>();
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    const site = sites.get(host);
    const path = req.url ?? "/";
    if (!site) return void res.writeHead(404).end();
    if (site.token && path === `/${site.token}.html`) return void res.writeHead(200, { "content-type": "text/html" }).end(site.token);
    if (path === "/urls.csv") return void res.writeHead(200, { "content-type": "text/csv" }).end(`url\n${[...site.pages.keys()].map((p) => `http://${host}${p}`).join("\n")}\n`);
    const page = site.pages.get(path);
    if (!page) return void res.writeHead(404, { "cache-control": "no-store" }).end();
    if (!req.headers[VISITOR_HEADER]) {
      const byPath = fetches.get(host) ?? fetches.set(host, new Map()).get(host)!;
      byPath.set(path, [...(byPath.get(path) ?? []), Date.now()]);
    }
    res.writeHead(200, { "content-type": "text/html", ...pageHeaders(page, site.swr) }).end(`<html><body>${path}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    serve: (host, site) => void sites.set(host, { token: site.token, pages: new Map(site.pages.map((p) => [p.path, p])), swr: site.swr }),
    warmerFetches: (host) => fetches.get(host) ?? new Map(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const visitors = new Agent({ connections: 16 });

/** One visitor's request for `path` on the cache at `port`: whether the cache answered it from its store. */
export async function visitorHit(port: number, host: string, path: string): Promise<boolean> {
  const response = await request(`http://127.0.0.1:${port}${path}`, { headers: { host, [VISITOR_HEADER]: "1", "user-agent": "Mozilla/5.0 (bench visitor)" }, dispatcher: visitors });
  await response.body.dump();
  return response.headers["x-cache"] === "HIT";
}
