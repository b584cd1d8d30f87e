import { describe, expect, it } from "vitest";
import { type CacheReading, type CacheVerdict, isCacheHit, PRAGMA_AKAMAI, readCacheStatus } from "./cache-status";
import type { NotCachedReason } from "@/lib/core/not-cached";
import { readFreshness } from "./freshness";
import { whyNotCached } from "@/lib/warm/not-cached";

type Headers = Record<string, string | string[] | undefined>;
type Row = [label: string, headers: Headers, verdict: CacheVerdict, pop: string | null];

const reading = (cdn: string | null, verdict: CacheVerdict, pop: string | null, raw: string | null): CacheReading => ({ cdn, verdict, pop, raw });

describe("Cloudflare", () => {
  const ray = "8f1b2c3d4e5f6a7b-CDG";
  it.each<Row>([
    ["HIT", { "cf-cache-status": "HIT", "cf-ray": ray, server: "cloudflare" }, "hit", "CDG"],
    ["MISS", { "cf-cache-status": "MISS", "cf-ray": "8f1b2c3d4e5f6a7c-FRA" }, "miss", "FRA"],
    ["EXPIRED", { "cf-cache-status": "EXPIRED", "cf-ray": ray }, "expired", "CDG"],
    ["STALE", { "cf-cache-status": "STALE", "cf-ray": ray }, "stale", "CDG"],
    ["UPDATING is a stale copy being refreshed", { "cf-cache-status": "UPDATING", "cf-ray": ray }, "stale", "CDG"],
    ["REVALIDATED", { "cf-cache-status": "REVALIDATED", "cf-ray": ray }, "revalidated", "CDG"],
    ["BYPASS", { "cf-cache-status": "BYPASS", "cf-ray": ray }, "bypass", "CDG"],
    ["DYNAMIC", { "cf-cache-status": "DYNAMIC", "cf-ray": ray }, "dynamic", "CDG"],
    ["NONE is not eligible for caching (a Worker, a redirect rule, a WAF block)", { "cf-cache-status": "NONE", "cf-ray": ray }, "bypass", "CDG"],
    ["UNKNOWN is not eligible for caching either", { "cf-cache-status": "UNKNOWN", "cf-ray": ray }, "bypass", "CDG"],
    ["an unknown word", { "cf-cache-status": "SOMETIMES", "cf-ray": ray }, "unknown", "CDG"],
    ["lower case", { "cf-cache-status": "hit", "cf-ray": "8f1b2c3d4e5f6a7b-sjc" }, "hit", "SJC"],
    ["no cf-ray", { "cf-cache-status": "HIT" }, "hit", null],
    ["a cf-ray without a PoP suffix", { "cf-cache-status": "HIT", "cf-ray": "8f1b2c3d4e5f6a7b" }, "hit", null],
    ["two rays: the last is the edge nearest the client", { "cf-cache-status": "HIT", "cf-ray": "8f1b2c3d4e5f6a7b-FRA, 8f1b2c3d4e5f6a7c-CDG" }, "hit", "CDG"],
  ])("%s", (_label, headers, verdict, pop) => {
    expect(readCacheStatus(headers)).toEqual(reading("cloudflare", verdict, pop, headers["cf-cache-status"] as string));
  });
});

describe("Cloudflare by cf-ray alone: answered before the cache", () => {
  const ray = "8f1b2c3d4e5f6a7b-CDG";
  it.each<Row>([
    ["a ray without cf-cache-status", { "cf-ray": ray, server: "cloudflare" }, "bypass", "CDG"],
    ["a lower-case PoP", { "cf-ray": "8f1b2c3d4e5f6a7b-sjc" }, "bypass", "SJC"],
    ["a ray without a PoP suffix", { "cf-ray": "8f1b2c3d4e5f6a7b" }, "bypass", null],
    ["two rays: the last names the PoP", { "cf-ray": "8f1b2c3d4e5f6a7b-FRA, 8f1b2c3d4e5f6a7c-CDG" }, "bypass", "CDG"],
    ["a stored age does not make it a hit", { "cf-ray": ray, age: "300" }, "bypass", "CDG"],
    ["a bare x-cache names no cache: the ray still wins", { "cf-ray": ray, "x-cache": "HIT" }, "bypass", "CDG"],
  ])("%s", (_label, headers, verdict, pop) => {
    expect(readCacheStatus(headers)).toEqual(reading("cloudflare", verdict, pop, headers["cf-ray"] as string));
  });

  it("an empty cf-ray names nobody", () => {
    expect(readCacheStatus({ "cf-ray": "" })).toEqual(reading(null, "unknown", null, null));
  });
});

describe("Fastly", () => {
  const shielded = "cache-iad-kiad7000039-IAD, cache-cdg20741-CDG";
  it.each<Row>([
    ["HIT", { "x-cache": "HIT", "x-served-by": "cache-cdg20741-CDG", "x-cache-hits": "3", via: "1.1 varnish" }, "hit", "CDG"],
    ["MISS", { "x-cache": "MISS", "x-served-by": "cache-fra-eddf8230062-FRA", via: "1.1 varnish" }, "miss", "FRA"],
    ["shield hit, edge miss: the edge (last) decides", { "x-cache": "HIT, MISS", "x-served-by": shielded }, "miss", "CDG"],
    ["shield miss, edge hit: the edge (last) decides", { "x-cache": "MISS, HIT", "x-served-by": shielded }, "hit", "CDG"],
    ["via varnish with an x-served-by node", { "x-cache": "HIT", "x-served-by": "cache-lcy19243-LCY", via: "1.1 varnish, 1.1 varnish" }, "hit", "LCY"],
    ["a fastly-* header without x-served-by", { "x-cache": "MISS", "fastly-restarts": "1" }, "miss", null],
    ["no x-cache", { "x-served-by": "cache-cdg20741-CDG" }, "unknown", "CDG"],
    ["PASS is a bypass", { "x-cache": "PASS", "x-served-by": "cache-cdg20741-CDG" }, "bypass", "CDG"],
    ["X-Timer alone names Fastly", { "x-cache": "HIT", "x-timer": "S1700000000.123456,VS0,VE0" }, "hit", null],
    ["X-Timer with a whole-second start", { "x-cache": "MISS", "x-timer": "S1700000000,VS0,VE12" }, "miss", null],
    ["X-Timer and x-served-by: the PoP from the node", { "x-cache": "MISS", "x-timer": "S1700000000.123456,VS0,VE12", "x-served-by": "cache-cdg20741-CDG" }, "miss", "CDG"],
    ["X-Timer without x-cache", { "x-timer": "S1700000000.123456,VS0,VE12" }, "unknown", null],
  ])("%s", (_label, headers, verdict, pop) => {
    expect(readCacheStatus(headers)).toEqual(reading("fastly", verdict, pop, headers["x-cache"] === undefined ? null : String(headers["x-cache"])));
  });
});

describe("CloudFront", () => {
  it.each<Row>([
    ["Hit", { "x-cache": "Hit from cloudfront", "x-amz-cf-pop": "CDG50-P1", "x-amz-cf-id": "kx1Yz0Qn3lq_example==" }, "hit", "CDG"],
    ["Miss", { "x-cache": "Miss from cloudfront", "x-amz-cf-pop": "FRA56-C1" }, "miss", "FRA"],
    ["RefreshHit is a revalidation", { "x-cache": "RefreshHit from cloudfront", "x-amz-cf-pop": "IAD89-P2" }, "revalidated", "IAD"],
    ["Error: the status code decides", { "x-cache": "Error from cloudfront", "x-amz-cf-pop": "CDG50-P1" }, "unknown", "CDG"],
    ["LimitExceeded: the status code decides", { "x-cache": "LimitExceeded from cloudfront", "x-amz-cf-pop": "CDG50-P1" }, "unknown", "CDG"],
    ["CapacityExceeded: the status code decides", { "x-cache": "CapacityExceeded from cloudfront", "x-amz-cf-pop": "CDG50-P1" }, "unknown", "CDG"],
    ["a redirect CloudFront made itself", { "x-cache": "Redirect from cloudfront", "x-amz-cf-pop": "CDG50-P1" }, "dynamic", "CDG"],
    ["a response built by a function", { "x-cache": "FunctionGeneratedResponse from cloudfront", "x-amz-cf-pop": "CDG50-P1" }, "dynamic", "CDG"],
    ["a response built by Lambda@Edge", { "x-cache": "LambdaGeneratedResponse from cloudfront", "x-amz-cf-pop": "CDG50-P1" }, "dynamic", "CDG"],
    ["an unknown result", { "x-cache": "Teapot from cloudfront", "x-amz-cf-pop": "CDG50-P1" }, "unknown", "CDG"],
    ["a result named like an Object property", { "x-cache": "constructor from cloudfront", "x-amz-cf-pop": "CDG50-P1" }, "unknown", "CDG"],
    ["no x-cache, only the PoP", { "x-amz-cf-pop": "NRT57-P3" }, "unknown", "NRT"],
  ])("%s", (_label, headers, verdict, pop) => {
    expect(readCacheStatus(headers)).toEqual(reading("cloudfront", verdict, pop, (headers["x-cache"] as string | undefined) ?? null));
  });
});

describe("Akamai", () => {
  const from = "from a23-1-2-3.deploy.akamaitechnologies.com (AkamaiGHost/22.1.2-12345678) (-)";
  it.each<Row>([
    ["TCP_HIT", { "x-cache": `TCP_HIT ${from}`, "x-cache-remote": `TCP_MISS ${from}` }, "hit", null],
    ["TCP_MEM_HIT", { "x-cache": `TCP_MEM_HIT ${from}` }, "hit", null],
    ["TCP_IMS_HIT", { "x-cache": `TCP_IMS_HIT ${from}` }, "hit", null],
    ["TCP_NEGATIVE_HIT (a cached 404)", { "x-cache": `TCP_NEGATIVE_HIT ${from}` }, "hit", null],
    ["TCP_REFRESH_HIT is a revalidation", { "x-cache": `TCP_REFRESH_HIT ${from}` }, "revalidated", null],
    ["TCP_REFRESH_FAIL_HIT served the stale copy", { "x-cache": `TCP_REFRESH_FAIL_HIT ${from}` }, "stale", null],
    ["TCP_MISS", { "x-cache": `TCP_MISS ${from}` }, "miss", null],
    ["TCP_REFRESH_MISS", { "x-cache": `TCP_REFRESH_MISS ${from}` }, "miss", null],
    ["TCP_CLIENT_REFRESH_MISS", { "x-cache": `TCP_CLIENT_REFRESH_MISS ${from}` }, "miss", null],
    ["any other TCP_…_MISS is a miss", { "x-cache": `TCP_SWAPFAIL_MISS ${from}` }, "miss", null],
    ["TCP_DENIED: refused at the edge, not a miss", { "x-cache": `TCP_DENIED ${from}` }, "bypass", null],
    ["TCP_COOKIE_DENY: refused on cookie authorisation, not a miss", { "x-cache": `TCP_COOKIE_DENY ${from}` }, "bypass", null],
    ["a TCP_ code that is neither", { "x-cache": `TCP_TUNNEL ${from}` }, "unknown", null],
    ["a bare code", { "x-cache": "TCP_HIT" }, "hit", null],
    ["x-cache decides over Akamai-Cache-Status", { "x-cache": `TCP_REFRESH_HIT ${from}`, "akamai-cache-status": "RefreshHit from child", server: "AkamaiGHost" }, "revalidated", null],
  ])("%s", (_label, headers, verdict, pop) => {
    expect(readCacheStatus(headers)).toEqual(reading("akamai", verdict, pop, headers["x-cache"] as string));
  });

  it("exports the Pragma value that makes Akamai report x-cache", () => {
    expect(PRAGMA_AKAMAI).toBe("akamai-x-cache-on");
  });
});

describe("Akamai-Cache-Status: the child (the edge) decides", () => {
  it.each<[label: string, value: string, verdict: CacheVerdict]>([
    ["Hit", "Hit from child", "hit"],
    ["Miss", "Miss from child", "miss"],
    ["RefreshHit is a revalidation", "RefreshHit from child", "revalidated"],
    ["HitStale served the stale copy", "HitStale from child", "stale"],
    ["NotCacheable is a bypass", "NotCacheable from child", "bypass"],
    ["Constructed at the edge", "Constructed from child", "dynamic"],
    ["Redirect made by the edge", "Redirect from child", "dynamic"],
    ["Error: the status code decides", "Error from child", "unknown"],
    ["child miss, parent hit: the child decides, though it comes first", "Miss from child, Hit from parent", "miss"],
    ["child hit, parent miss", "Hit from child, Miss from parent", "hit"],
    ["the child wherever it is listed", "Hit from parent, Miss from child", "miss"],
    ["a status without a tier", "Hit", "hit"],
    ["lower case", "hitstale from child", "stale"],
    ["an unknown status", "Teapot from child", "unknown"],
    ["a status named like an Object property", "constructor from child", "unknown"],
  ])("%s", (_label, value, verdict) => {
    expect(readCacheStatus({ "akamai-cache-status": value })).toEqual(reading("akamai", verdict, null, value));
  });

  it("beats an x-cache that Akamai passed through from the origin", () => {
    expect(readCacheStatus({ "akamai-cache-status": "Miss from child", "x-cache": "HIT", server: "AkamaiGHost" })).toEqual(reading("akamai", "miss", null, "Miss from child"));
  });
});

describe("Akamai by its server name", () => {
  it.each<[label: string, headers: Headers, expected: CacheReading]>([
    ["AkamaiGHost (a response the edge built)", { server: "AkamaiGHost" }, reading("akamai", "unknown", null, null)],
    ["AkamaiNetStorage", { server: "AkamaiNetStorage" }, reading("akamai", "unknown", null, null)],
    ["with someone else's x-cache it came from behind them", { server: "AkamaiGHost", "x-cache": "HIT" }, reading("x-cache", "hit", null, "HIT")],
    ["a name that only starts the same", { server: "AkamaiGHostly" }, reading(null, "unknown", null, null)],
  ])("%s", (_label, headers, expected) => {
    expect(readCacheStatus(headers)).toEqual(expected);
  });
});

describe("Azure Front Door", () => {
  const ref = "20240105T101525Z-16b8c7d9f6bk8wqhC1PAR0000000001g0000000005ab";
  it.each<Row>([
    ["TCP_HIT", { "x-azure-ref": ref, "x-cache": "TCP_HIT" }, "hit", null],
    ["TCP_REMOTE_HIT: from the regional cache, still a hit", { "x-azure-ref": ref, "x-cache": "TCP_REMOTE_HIT" }, "hit", null],
    ["TCP_MISS", { "x-azure-ref": ref, "x-cache": "TCP_MISS" }, "miss", null],
    ["PRIVATE_NOSTORE", { "x-azure-ref": ref, "x-cache": "PRIVATE_NOSTORE" }, "bypass", null],
    ["CONFIG_NOCACHE", { "x-azure-ref": ref, "x-cache": "CONFIG_NOCACHE" }, "bypass", null],
    ["UNCACHEABLE", { "x-azure-ref": ref, "x-cache": "UNCACHEABLE" }, "bypass", null],
    ["N/A (denied by a signed URL or a rule set): the status code decides", { "x-azure-ref": ref, "x-cache": "N/A" }, "unknown", null],
    ["lower case", { "x-azure-ref": ref, "x-cache": "tcp_hit" }, "hit", null],
    ["named by x-fd-int-roxy-purgeid", { "x-fd-int-roxy-purgeid": "12345678", "x-cache": "TCP_HIT" }, "hit", null],
    ["no x-cache", { "x-azure-ref": ref }, "unknown", null],
  ])("%s", (_label, headers, verdict, pop) => {
    expect(readCacheStatus(headers)).toEqual(reading("azure", verdict, pop, (headers["x-cache"] as string | undefined) ?? null));
  });
});

describe("Vercel", () => {
  it.each<Row>([
    ["HIT", { "x-vercel-cache": "HIT", "x-vercel-id": "cdg1::iad1::abcd-1700000000000-0123456789ab", server: "Vercel" }, "hit", "CDG"],
    ["MISS", { "x-vercel-cache": "MISS", "x-vercel-id": "fra1::fra1::wxyz-1700000000000-ba9876543210" }, "miss", "FRA"],
    ["STALE", { "x-vercel-cache": "STALE", "x-vercel-id": "cdg1::iad1::abcd-123" }, "stale", "CDG"],
    ["PRERENDER is served from cache", { "x-vercel-cache": "PRERENDER", "x-vercel-id": "hnd1::abcd-123" }, "hit", "HND"],
    ["REVALIDATED", { "x-vercel-cache": "REVALIDATED", "x-vercel-id": "cdg1::iad1::abcd-123" }, "revalidated", "CDG"],
    ["BYPASS (e.g. a crawler user agent) is not a miss", { "x-vercel-cache": "BYPASS", "x-vercel-id": "cdg1::iad1::abcd-123" }, "bypass", "CDG"],
    ["no x-vercel-id", { "x-vercel-cache": "HIT" }, "hit", null],
  ])("%s", (_label, headers, verdict, pop) => {
    expect(readCacheStatus(headers)).toEqual(reading("vercel", verdict, pop, headers["x-vercel-cache"] as string));
  });
});

describe("Netlify", () => {
  const nf = { "x-nf-request-id": "01JD5Q2ZB6V7J6X3N4K8M9P0QR", server: "Netlify" };
  it.each<Row>([
    ["edge hit", { ...nf, "cache-status": '"Netlify Edge"; hit' }, "hit", null],
    ["edge miss", { ...nf, "cache-status": '"Netlify Edge"; fwd=miss' }, "miss", null],
    ["durable cache hit, edge miss: the edge (last) decides", { ...nf, "cache-status": '"Netlify Durable"; hit; ttl=3000, "Netlify Edge"; fwd=miss' }, "miss", null],
    ["durable miss, edge hit", { ...nf, "cache-status": '"Netlify Durable"; fwd=uri-miss; stored, "Netlify Edge"; hit' }, "hit", null],
    ["as repeated headers", { ...nf, "cache-status": ['"Netlify Durable"; fwd=uri-miss; stored', '"Netlify Edge"; fwd=stale'] }, "stale", null],
    ["an edge entry that says hit but was forwarded is a miss", { ...nf, "cache-status": '"Netlify Edge"; hit; fwd=miss' }, "miss", null],
  ])("%s", (_label, headers, verdict, pop) => {
    const raw = headers["cache-status"]!;
    expect(readCacheStatus(headers)).toEqual(reading("netlify", verdict, pop, Array.isArray(raw) ? raw.join(", ") : raw));
  });
});

describe("Varnish", () => {
  it.each<Row>([
    ["two transaction ids are a hit", { "x-varnish": "32771 32770", age: "118", via: "1.1 varnish (Varnish/7.4)" }, "hit", null],
    ["one transaction id is a miss", { "x-varnish": "32772", age: "0", via: "1.1 varnish (Varnish/7.4)" }, "miss", null],
    ["via varnish alone, with a stored age", { via: "1.1 varnish (Varnish/7.4)", age: "42" }, "hit", null],
    ["via varnish alone, without age", { via: "1.1 varnish" }, "unknown", null],
    ["via varnish alone, age 0", { via: "1.1 varnish", age: "0" }, "unknown", null],
    ["garbage ids fall back on age", { "x-varnish": "abc def ghi", age: "0" }, "unknown", null],
  ])("%s", (_label, headers, verdict, pop) => {
    expect(readCacheStatus(headers)).toMatchObject({ cdn: "varnish", verdict, pop });
  });

  it("keeps x-varnish as the raw value", () => {
    expect(readCacheStatus({ "x-varnish": "32771 32770" }).raw).toBe("32771 32770");
  });

  it("keeps Via as the raw value when it alone names Varnish", () => {
    expect(readCacheStatus({ via: "1.1 varnish", age: "42" })).toEqual(reading("varnish", "hit", null, "1.1 varnish"));
    expect(readCacheStatus({ via: "1.1 varnish" })).toEqual(reading("varnish", "unknown", null, "1.1 varnish"));
  });
});

describe("nginx", () => {
  it.each<Row>([
    ["HIT", { "x-cache-status": "HIT", server: "nginx" }, "hit", null],
    ["MISS", { "x-cache-status": "MISS" }, "miss", null],
    ["EXPIRED", { "x-cache-status": "EXPIRED" }, "expired", null],
    ["STALE", { "x-cache-status": "STALE" }, "stale", null],
    ["UPDATING is a stale copy being refreshed", { "x-cache-status": "UPDATING" }, "stale", null],
    ["REVALIDATED", { "x-cache-status": "REVALIDATED" }, "revalidated", null],
    ["BYPASS", { "x-cache-status": "BYPASS" }, "bypass", null],
    ["an unknown word", { "x-cache-status": "SOMETIMES" }, "unknown", null],
  ])("%s", (_label, headers, verdict, pop) => {
    expect(readCacheStatus(headers)).toEqual(reading("nginx", verdict, pop, headers["x-cache-status"] as string));
  });
});

describe("Bunny CDN", () => {
  const bunny = { "cdn-pullzone": "123456", "cdn-requestcountrycode": "FR" };
  it.each<Row>([
    ["HIT", { ...bunny, "cdn-cache": "HIT", server: "BunnyCDN-DE1-1049" }, "hit", "DE1"],
    ["MISS", { ...bunny, "cdn-cache": "MISS", server: "BunnyCDN-FR1-722" }, "miss", "FR1"],
    ["EXPIRED", { ...bunny, "cdn-cache": "EXPIRED", server: "BunnyCDN-DE1-1049" }, "expired", "DE1"],
    ["BYPASS", { ...bunny, "cdn-cache": "BYPASS", server: "BunnyCDN-DE1-1049" }, "bypass", "DE1"],
    ["the visitor's country is not a PoP", { ...bunny, "cdn-cache": "HIT", server: "nginx" }, "hit", null],
  ])("%s", (_label, headers, verdict, pop) => {
    expect(readCacheStatus(headers)).toEqual(reading("bunny", verdict, pop, headers["cdn-cache"] as string));
  });
});

describe("RFC 9211 Cache-Status", () => {
  it.each<[label: string, value: string, cdn: string, verdict: CacheVerdict]>([
    ["hit", "ExampleCache; hit", "ExampleCache", "hit"],
    ["hit with a negative ttl served stale", "ExampleCache; hit; ttl=-30", "ExampleCache", "stale"],
    ["hit=?0 is not a hit", "ExampleCache; hit=?0; fwd=miss", "ExampleCache", "miss"],
    ["uri-miss", "ExampleCache; fwd=uri-miss; stored", "ExampleCache", "miss"],
    ["vary-miss", "ExampleCache; fwd=vary-miss", "ExampleCache", "miss"],
    ["request", "ExampleCache; fwd=request; fwd-status=200", "ExampleCache", "miss"],
    ["stale", "ExampleCache; fwd=stale; fwd-status=200", "ExampleCache", "stale"],
    ["stale answered with a 304 is a revalidation", "ExampleCache; fwd=stale; fwd-status=304", "ExampleCache", "revalidated"],
    ["bypass", "ExampleCache; fwd=bypass", "ExampleCache", "bypass"],
    ["method", "ExampleCache; fwd=method", "ExampleCache", "bypass"],
    ["partial", "ExampleCache; fwd=partial", "ExampleCache", "miss"],
    ["a fwd reason the RFC does not name", "ExampleCache; fwd=later-reason", "ExampleCache", "miss"],
    ["hit with fwd=uri-miss is a miss: a forward is never a hit", "ExampleCache; hit; fwd=uri-miss", "ExampleCache", "miss"],
    ["fwd=uri-miss before hit", "ExampleCache; fwd=uri-miss; hit", "ExampleCache", "miss"],
    ["hit with fwd=miss and a ttl", "ExampleCache; hit; fwd=miss; ttl=300", "ExampleCache", "miss"],
    ["hit with fwd=stale is stale", "ExampleCache; hit; fwd=stale", "ExampleCache", "stale"],
    ["hit with fwd=stale answered with a 304", "ExampleCache; hit; fwd=stale; fwd-status=304", "ExampleCache", "revalidated"],
    ["hit with fwd=bypass", "ExampleCache; hit; fwd=bypass", "ExampleCache", "bypass"],
    ["origin hit, CDN hit but forwarded", "Origin; hit, CDN; hit; fwd=uri-miss", "CDN", "miss"],
    ["origin miss, CDN hit: the last (client-side) entry decides", "Origin; fwd=miss, CDN; hit", "CDN", "hit"],
    ["origin hit, CDN miss", "Origin; hit, CDN; fwd=uri-miss", "CDN", "miss"],
    ["a quoted name and detail holding separators", '"Edge, Paris"; detail="a; b, c"; hit', "Edge, Paris", "hit"],
    ["neither hit nor fwd", "ExampleCache; stored", "ExampleCache", "unknown"],
  ])("%s", (_label, value, cdn, verdict) => {
    expect(readCacheStatus({ "cache-status": value })).toEqual(reading(cdn, verdict, null, value));
  });
});

describe("fallback on Age", () => {
  it.each<[label: string, headers: Headers, expected: CacheReading]>([
    ["age > 0 is a hit from some cache", { age: "120", "content-type": "text/html" }, reading(null, "hit", null, "120")],
    ["age 0", { age: "0" }, reading(null, "unknown", null, "0")],
    ["no age", { "content-type": "text/html" }, reading(null, "unknown", null, null)],
    ["no headers", {}, reading(null, "unknown", null, null)],
    ["a negative age", { age: "-5" }, reading(null, "unknown", null, "-5")],
    ["a garbage age", { age: "soon" }, reading(null, "unknown", null, "soon")],
    ["a word x-cache does not know", { "x-cache": "MAYBE", age: "0" }, reading("x-cache", "unknown", null, "MAYBE")],
  ])("%s", (_label, headers, expected) => {
    expect(readCacheStatus(headers)).toEqual(expected);
  });
});

describe("a bare x-cache, from any cache", () => {
  it.each<[string, Record<string, string>, CacheReading]>([
    ["HIT", { "x-cache": "HIT", age: "0" }, reading("x-cache", "hit", null, "HIT")],
    ["MISS", { "x-cache": "MISS" }, reading("x-cache", "miss", null, "MISS")],
    ["Squid's HIT from <host>", { "x-cache": "HIT from proxy.example.net" }, reading("x-cache", "hit", null, "HIT from proxy.example.net")],
    ["the last of a list", { "x-cache": "MISS, HIT" }, reading("x-cache", "hit", null, "MISS, HIT")],
    ["PASS", { "x-cache": "PASS" }, reading("x-cache", "bypass", null, "PASS")],
    ["an X-Timer not in Fastly's format names nobody", { "x-cache": "HIT", "x-timer": "t=12" }, reading("x-cache", "hit", null, "HIT")],
    ["x-azure-ref with an x-cache value Front Door never writes", { "x-cache": "STALE", "x-azure-ref": "ref" }, reading("x-cache", "stale", null, "STALE")],
  ])("%s", (_label, headers, expected) => {
    expect(readCacheStatus(headers)).toEqual(expected);
  });
});

describe("precedence: the cache nearest the client wins", () => {
  it.each<[label: string, headers: Headers, cdn: string, verdict: CacheVerdict, pop: string | null]>([
    ["Cloudflare in front of an nginx cache", { "cf-cache-status": "HIT", "cf-ray": "8f1b2c3d4e5f6a7b-CDG", "x-cache-status": "MISS" }, "cloudflare", "hit", "CDG"],
    ["Cloudflare in front of Varnish", { "cf-cache-status": "MISS", "x-varnish": "32771 32770", age: "50" }, "cloudflare", "miss", null],
    ["Cloudflare in front of Vercel", { "cf-cache-status": "DYNAMIC", "x-vercel-cache": "HIT", "x-vercel-id": "fra1::abcd-1" }, "cloudflare", "dynamic", null],
    ["Fastly in front of an nginx cache", { "x-cache": "HIT", "x-served-by": "cache-cdg20741-CDG", "x-cache-status": "MISS" }, "fastly", "hit", "CDG"],
    ["Vercel in front of a Varnish origin", { "x-vercel-cache": "MISS", "x-vercel-id": "cdg1::abcd-1", via: "1.1 varnish" }, "vercel", "miss", "CDG"],
    ["Fastly appending to CloudFront's x-cache", { "x-cache": "Hit from cloudfront, MISS", "x-amz-cf-pop": "CDG50-P1", "x-served-by": "cache-cdg20741-CDG" }, "fastly", "miss", "CDG"],
    ["CloudFront replacing Fastly's x-cache", { "x-cache": "Miss from cloudfront", "x-amz-cf-pop": "CDG50-P1", "x-served-by": "cache-iad-kiad7000039-IAD" }, "cloudfront", "miss", "CDG"],
    ["Cache-Status from an edge in front of nginx", { "cache-status": "Edge; hit", "x-cache-status": "MISS" }, "Edge", "hit", null],
    ["Bunny in front of Varnish", { "cdn-cache": "MISS", server: "BunnyCDN-DE1-1049", "x-varnish": "32771 32770" }, "bunny", "miss", "DE1"],
    ["a cf-ray alone does not beat Vercel's verdict", { "cf-ray": "8f1b2c3d4e5f6a7b-CDG", "x-vercel-cache": "HIT", "x-vercel-id": "fra1::abcd-1" }, "vercel", "hit", "FRA"],
    ["a cf-ray alone does not beat Netlify's verdict", { "cf-ray": "8f1b2c3d4e5f6a7b-CDG", "cache-status": '"Netlify Edge"; hit' }, "netlify", "hit", null],
    ["a cf-ray alone does not beat an origin's Cache-Status", { "cf-ray": "8f1b2c3d4e5f6a7b-CDG", "cache-status": "Origin; fwd=uri-miss" }, "Origin", "miss", null],
    ["a cf-ray alone does not beat nginx", { "cf-ray": "8f1b2c3d4e5f6a7b-CDG", "x-cache-status": "HIT" }, "nginx", "hit", null],
    ["a cf-ray alone does not beat Varnish", { "cf-ray": "8f1b2c3d4e5f6a7b-CDG", "x-varnish": "32771 32770" }, "varnish", "hit", null],
    ["a cf-ray alone does not beat Fastly", { "cf-ray": "8f1b2c3d4e5f6a7b-CDG", "x-cache": "HIT", "x-served-by": "cache-fra-eddf8230062-FRA" }, "fastly", "hit", "FRA"],
    ["Front Door's TCP_ codes are not Akamai's", { "x-azure-ref": "ref", "x-cache": "TCP_HIT" }, "azure", "hit", null],
    ["an Akamai edge in front of Front Door", { "x-azure-ref": "ref", "x-cache": "TCP_MISS from a23-1-2-3.deploy.akamaitechnologies.com (AkamaiGHost/22.1.2-12345678) (-)" }, "akamai", "miss", null],
    ["Fastly in front of Front Door", { "x-azure-ref": "ref", "x-cache": "HIT", "x-served-by": "cache-cdg20741-CDG" }, "fastly", "hit", "CDG"],
    ["Front Door in front of an nginx cache", { "x-azure-ref": "ref", "x-cache": "TCP_MISS", "x-cache-status": "HIT" }, "azure", "miss", null],
    ["CloudFront in front of Front Door", { "x-azure-ref": "ref", "x-cache": "Hit from cloudfront", "x-amz-cf-pop": "CDG50-P1" }, "cloudfront", "hit", "CDG"],
    ["Akamai-Cache-Status in front of Vercel", { "akamai-cache-status": "Hit from child", "x-vercel-cache": "MISS", "x-vercel-id": "cdg1::abcd-1" }, "akamai", "hit", null],
    ["Fastly in front of a response Akamai built", { server: "AkamaiGHost", "x-cache": "MISS", "x-timer": "S1700000000.123456,VS0,VE12" }, "fastly", "miss", null],
  ])("%s", (_label, headers, cdn, verdict, pop) => {
    expect(readCacheStatus(headers)).toMatchObject({ cdn, verdict, pop });
  });
});

describe("odd input", () => {
  it("joins array-valued headers with a comma", () => {
    expect(readCacheStatus({ "x-cache": ["HIT", "MISS"], "x-served-by": ["cache-iad-kiad7000039-IAD", "cache-cdg20741-CDG"] })).toEqual(reading("fastly", "miss", "CDG", "HIT, MISS"));
    expect(readCacheStatus({ "cf-cache-status": ["HIT"], "cf-ray": ["8f1b2c3d4e5f6a7b-CDG"] })).toEqual(reading("cloudflare", "hit", "CDG", "HIT"));
    expect(readCacheStatus({ age: ["0", "30"] })).toEqual(reading(null, "hit", null, "0, 30"));
  });

  it("skips undefined values and reads names in any case", () => {
    expect(readCacheStatus({ "cf-cache-status": undefined, "X-Vercel-Cache": "HIT", "x-vercel-id": "cdg1::abcd-1" })).toEqual(reading("vercel", "hit", "CDG", "HIT"));
  });

  it.each<[label: string, headers: Headers]>([
    ["empty values", { "cf-cache-status": "", "cf-ray": "", "x-cache": "", "x-served-by": "", "cache-status": "", age: "" }],
    ["separators only", { "x-cache": ",,, ,", "x-served-by": "cache-, ,", "cache-status": ';;, "";=' }],
    ["an empty array", { "x-cache": [], "x-served-by": ["cache-"] }],
    ["empty values of the newer families", { "akamai-cache-status": "", "x-azure-ref": "", "x-timer": "", "cf-ray": "", server: "" }],
    ["separators in the newer families", { "akamai-cache-status": ",,, ,", "x-azure-ref": ",", "x-cache": ",", "x-timer": "S,VS", "cf-ray": "-, -" }],
    ["a huge value", { "x-cache-status": "HIT, ".repeat(10_000) }],
  ])("never throws on %s", (_label, headers) => {
    const result = readCacheStatus(headers);
    expect(["hit", "miss", "bypass", "dynamic", "expired", "stale", "revalidated", "unknown"]).toContain(result.verdict);
  });

  it("reads a Cache-Status with an unterminated quote as if unquoted", () => {
    expect(readCacheStatus({ "cache-status": '"Netlify Edge; hit' })).toEqual(reading("netlify", "hit", null, '"Netlify Edge; hit'));
  });

  it("does not throw on input that breaks the type", () => {
    expect(readCacheStatus(null as unknown as Headers)).toEqual(reading(null, "unknown", null, null));
    expect(readCacheStatus({ age: 30 as unknown as string, "cf-cache-status": null as unknown as string })).toEqual(reading(null, "hit", null, "30"));
  });
});

describe("what the newer rows mean for the run's not_cached reason", () => {
  const reasonOf = (status: number, headers: Headers): NotCachedReason | null => {
    const cache = readCacheStatus(headers);
    return whyNotCached({ status, headers }, cache, readFreshness({ requestHeaders: {}, status, responseHeaders: headers, cdn: cache.cdn, receivedAt: new Date() }));
  };
  it.each<[label: string, status: number, headers: Headers, reason: NotCachedReason | null]>([
    ["a cf-ray alone is a CDN bypass", 200, { "cf-ray": "8f1b2c3d4e5f6a7b-CDG" }, "cdn_bypass"],
    ["cf-cache-status NONE is a CDN bypass", 200, { "cf-cache-status": "NONE", "cf-ray": "8f1b2c3d4e5f6a7b-CDG" }, "cdn_bypass"],
    ["Akamai's TCP_DENIED is not a miss", 200, { "x-cache": "TCP_DENIED from a23-1-2-3.deploy.akamaitechnologies.com" }, "cdn_bypass"],
    ["Akamai's TCP_COOKIE_DENY is not a miss", 200, { "x-cache": "TCP_COOKIE_DENY from a23-1-2-3.deploy.akamaitechnologies.com" }, "cdn_bypass"],
    ["Akamai-Cache-Status Constructed", 200, { "akamai-cache-status": "Constructed from child" }, "cdn_bypass"],
    ["Akamai-Cache-Status HitStale is served from cache", 200, { "akamai-cache-status": "HitStale from child" }, null],
    ["Akamai-Cache-Status Error on a 403", 403, { "akamai-cache-status": "Error from child" }, "http_error"],
    ["CloudFront's Error on a 502", 502, { "x-cache": "Error from cloudfront", "x-amz-cf-pop": "CDG50-P1" }, "http_error"],
    ["CloudFront's LimitExceeded on a 429", 429, { "x-cache": "LimitExceeded from cloudfront" }, "http_error"],
    ["CloudFront's Redirect on a 301", 301, { "x-cache": "Redirect from cloudfront" }, "redirect"],
    ["Front Door's CONFIG_NOCACHE", 200, { "x-azure-ref": "ref", "x-cache": "CONFIG_NOCACHE" }, "cdn_bypass"],
    ["Front Door's TCP_REMOTE_HIT", 200, { "x-azure-ref": "ref", "x-cache": "TCP_REMOTE_HIT" }, null],
    ["Front Door without x-cache still names a cache", 200, { "x-azure-ref": "ref" }, "miss"],
    ["a forwarded Cache-Status hit is a miss", 200, { "cache-status": "ExampleCache; hit; fwd=uri-miss" }, "miss"],
    ["a forwarded Cache-Status method is a CDN bypass", 200, { "cache-status": "ExampleCache; fwd=method" }, "cdn_bypass"],
    ["Fastly by X-Timer, a miss", 200, { "x-cache": "MISS", "x-timer": "S1700000000.123456,VS0,VE12" }, "miss"],
  ])("%s", (_label, status, headers, reason) => {
    expect(reasonOf(status, headers)).toBe(reason);
  });
});

describe("isCacheHit", () => {
  it.each<[CacheVerdict, boolean]>([
    ["hit", true],
    ["stale", true],
    ["revalidated", true],
    ["miss", false],
    ["expired", false],
    ["bypass", false],
    ["dynamic", false],
    ["unknown", false],
  ])("%s → %s", (verdict, expected) => {
    expect(isCacheHit(reading("cloudflare", verdict, null, null))).toBe(expected);
  });
});
