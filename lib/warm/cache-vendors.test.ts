import { describe, expect, it } from "vitest";
import type { NotCachedReason } from "@/lib/core/not-cached";
import { readFreshness } from "./freshness";
import { whyNotCached } from "@/lib/warm/not-cached";
import { type CacheReading, type CacheVerdict, readCacheStatus } from "./cache-status";

type Headers = Record<string, string | string[] | undefined>;

const reading = (cdn: string | null, verdict: CacheVerdict, pop: string | null, raw: string | null): CacheReading => ({ cdn, verdict, pop, raw });

describe("StackPath (X-HW): a list ending in .p was pulled from the origin", () => {
  it.each<[label: string, xhw: string | string[], verdict: CacheVerdict]>([
    ["edge, shield, then .p: pulled from the origin", "1584631701.cds045.da2.hn,1584631701.cds118.da2.sc,1584631701.cds118.da2.p", "miss"],
    ["through the WAF, then .p", "1552411092.cds068.fr8.h2,1552411092.cds028.fr8.sc,1552411092.cdn2-wafbe03-fra1.stackpath.systems.-.wx,1552411092.cds028.fr8.p", "miss"],
    ["a single hop pulling", "1584631701.cds118.da2.p", "miss"],
    ["a list ending at a cache, not .p: answered without the origin", "1584631701.cds045.da2.hn,1584631701.cds118.da2.sc", "hit"],
    ["a single hop that did not pull", "1584631701.cds045.da2.hn", "hit"],
    ["upper case", "1584631701.CDS045.DA2.HN,1584631701.CDS118.DA2.P", "miss"],
    ["repeated headers: the last hop decides", ["1584631701.cds045.da2.hn", "1584631701.cds118.da2.p"], "miss"],
  ])("%s", (_label, xhw, verdict) => {
    const raw = Array.isArray(xhw) ? xhw.join(", ") : xhw;
    expect(readCacheStatus({ "x-hw": xhw, server: "fbs" })).toEqual(reading("stackpath", verdict, null, raw));
  });

  it("an empty X-HW names nobody", () => {
    expect(readCacheStatus({ "x-hw": "" })).toEqual(reading(null, "unknown", null, null));
  });
});

describe("Imperva (X-IInfo): the second letter of the flag group", () => {
  it.each<[label: string, xiinfo: string, verdict: CacheVerdict]>([
    ["C: served from the cache", "9-49176764-0 0CNN RT(1426425483129 667) q(0 -1 -1 -1) r(0 -1)", "hit"],
    ["V: from the cache, once the origin validated it", "4-152072-152074 PVNN RT(1415979066955 4498) q(0 0 0 -1) r(2 2)", "revalidated"],
    ["N after P: fetched from the origin", "4-152072-152074 PNNN RT(1415979066955 4498) q(0 0 0 -1) r(2 2)", "miss"],
    ["N after S: fetched from the origin", "10-12345-0 SNNN RT(1700000000000 12) q(0 0 0 -1) r(1 1)", "miss"],
    ["NNNN, with connection timings: fetched from the origin", "4-13055499-13055501 NNNN CT(182 -1 0) RT(1388193578304 0) q(0 0 1 4) r(6 6) U1", "miss"],
    ["any other letter: fetched from the origin", "5-17009424-17011001 PYNN RT(1388193526625 4677) q(0 0 0 -1) r(1 1) U10000", "miss"],
    ["lower case", "9-49176764-0 0cnn RT(1426425483129 667)", "hit"],
    ["no flag group: Imperva named, its verdict unread", "9-49176764-0 RT(1426425483129 667)", "unknown"],
  ])("%s", (_label, xiinfo, verdict) => {
    expect(readCacheStatus({ "x-iinfo": xiinfo, "x-cdn": "Imperva" })).toEqual(reading("imperva", verdict, null, xiinfo));
  });
});

describe("Google Cloud CDN: {cdn_cache_status} in the header the site named, behind Via: 1.1 google", () => {
  it.each<[label: string, headers: Headers, verdict: CacheVerdict, raw: string]>([
    ["hit, in X-Cache-Status", { via: "1.1 google", "x-cache-status": "hit" }, "hit", "hit"],
    ["miss, in Cdn-Cache-Status", { via: "1.1 google", "cdn-cache-status": "miss" }, "miss", "miss"],
    ["revalidated, in Cache-Status", { via: "1.1 google", "cache-status": "revalidated" }, "revalidated", "revalidated"],
    ["stale, in X-Cache", { via: "1.1 google", "x-cache": "stale" }, "stale", "stale"],
    ["uncacheable: Cloud CDN would not store it", { via: "1.1 google", "x-cache-status": "uncacheable" }, "bypass", "uncacheable"],
    ["disabled: Cloud CDN is off on the backend", { via: "1.1 google", "x-goog-cache": "disabled" }, "bypass", "disabled"],
    ["Via with another hop after Google's", { via: "1.1 google, 1.1 proxy", "x-cache-status": "hit", age: "30" }, "hit", "hit"],
  ])("%s", (_label, headers, verdict, raw) => {
    expect(readCacheStatus(headers)).toEqual(reading("google", verdict, null, raw));
  });

  it.each<[label: string, headers: Headers, expected: CacheReading]>([
    ["without the site's header, only Age speaks", { via: "1.1 google", age: "120" }, reading(null, "hit", null, "120")],
    ["without the site's header nor Age, nothing is known", { via: "1.1 google" }, reading(null, "unknown", null, null)],
    ["a word in a header whose name is not about caching is not a verdict", { via: "1.1 google", "x-feature-flag": "disabled" }, reading(null, "unknown", null, null)],
    ["an nginx cache behind Google's load balancer writes upper case: nginx answered", { via: "1.1 google", "x-cache-status": "HIT" }, reading("nginx", "hit", null, "HIT")],
    ["the same word without Via: 1.1 google is nginx's", { "x-cache-status": "hit" }, reading("nginx", "hit", null, "hit")],
  ])("%s", (_label, headers, expected) => {
    expect(readCacheStatus(headers)).toEqual(expected);
  });
});

describe("Alibaba Cloud CDN (EagleId, X-Cache: HIT TCP_MEM_HIT dirn:…)", () => {
  const eagle = { eagleid: "3b258ea916191633699787917e", server: "Tengine" };
  it.each<[label: string, headers: Headers, verdict: CacheVerdict]>([
    ["HIT TCP_MEM_HIT", { ...eagle, "x-cache": "HIT TCP_MEM_HIT dirn:-2:-2" }, "hit"],
    ["HIT TCP_HIT", { ...eagle, "x-cache": "HIT TCP_HIT dirn:0:523456789" }, "hit"],
    [
      "HIT TCP_REFRESH_HIT: stale, and the origin answered 304",
      { ...eagle, "x-cache": "HIT TCP_REFRESH_HIT dirn:11:927701954", via: "cache45.l2cn1832[38,304-0,M], kunlun15.cn3157[55,55,200-0,H]" },
      "revalidated",
    ],
    ["MISS TCP_MISS", { ...eagle, "x-cache": "MISS TCP_MISS dirn:-2:-2", "x-swift-cachetime": "0" }, "miss"],
    ["lower case", { ...eagle, "x-cache": "hit tcp_mem_hit dirn:-2:-2" }, "hit"],
    ["named by Ali-Swift-Global-Savetime alone", { "ali-swift-global-savetime": "1619162787", "x-cache": "HIT TCP_MEM_HIT dirn:-2:-2" }, "hit"],
  ])("%s", (_label, headers, verdict) => {
    expect(readCacheStatus(headers)).toEqual(reading("alibaba", verdict, null, headers["x-cache"] as string));
  });

  it("without X-Cache, Alibaba is named and its verdict unread", () => {
    expect(readCacheStatus(eagle)).toEqual(reading("alibaba", "unknown", null, null));
  });

  it("a bare HIT is not Alibaba's: a cache in front wrote it", () => {
    expect(readCacheStatus({ ...eagle, "x-cache": "HIT" })).toEqual(reading("x-cache", "hit", null, "HIT"));
  });
});

describe("Tencent Cloud CDN (X-NWS-LOG-UUID, X-Cache-Lookup)", () => {
  const uuid = { "x-nws-log-uuid": "13733582990050331190" };
  it.each<[label: string, lookup: string | string[], verdict: CacheVerdict]>([
    ["Hit From MemCache", "Hit From MemCache", "hit"],
    ["Hit From Disktank", "Hit From Disktank", "hit"],
    ["Cache Hit", "Cache Hit", "hit"],
    ["Hit From Upstream: the parent tier had it", "Hit From Upstream", "hit"],
    ["Cache Miss", "Cache Miss", "miss"],
    ["Hit From Inner Cluster is none of the documented hits", "Hit From Inner Cluster", "miss"],
    ["any other value", "Something Else", "miss"],
    ["repeated headers: the last decides", ["Cache Miss", "Hit From Inner Cluster"], "miss"],
    ["in any case", "hit from memcache", "hit"],
  ])("%s", (_label, lookup, verdict) => {
    const raw = Array.isArray(lookup) ? lookup.join(", ") : lookup;
    expect(readCacheStatus({ ...uuid, "x-cache-lookup": lookup })).toEqual(reading("tencent", verdict, null, raw));
  });

  it("without X-Cache-Lookup, Tencent is named and its verdict unread", () => {
    expect(readCacheStatus(uuid)).toEqual(reading("tencent", "unknown", null, null));
  });

  it("X-Cache-Lookup without Tencent's log id names nobody", () => {
    expect(readCacheStatus({ "x-cache-lookup": "Cache Hit" })).toEqual(reading(null, "unknown", null, null));
  });
});

describe("precedence of the newer caches: the one nearest the client wins", () => {
  it.each<[label: string, headers: Headers, cdn: string, verdict: CacheVerdict]>([
    ["Imperva in front of CloudFront", { "x-iinfo": "9-49176764-0 0CNN RT(1426425483129 667)", "x-cache": "Miss from cloudfront", "x-amz-cf-pop": "CDG50-P1" }, "imperva", "hit"],
    ["Imperva in front of an nginx cache", { "x-iinfo": "4-152072-152074 PNNN RT(1415979066955 4498)", "x-cache-status": "HIT" }, "imperva", "miss"],
    ["Cloudflare in front of Imperva", { "cf-cache-status": "HIT", "cf-ray": "8f1b2c3d4e5f6a7b-CDG", "x-iinfo": "4-152072-152074 PNNN RT(1415979066955 4498)" }, "cloudflare", "hit"],
    ["Alibaba in front of an origin's Cache-Status", { eagleid: "3b25", "x-cache": "MISS TCP_MISS dirn:-2:-2", "cache-status": "Origin; hit" }, "alibaba", "miss"],
    ["Tencent in front of Varnish", { "x-nws-log-uuid": "1373", "x-cache-lookup": "Cache Hit", "x-varnish": "32771" }, "tencent", "hit"],
    ["StackPath in front of an nginx cache", { "x-hw": "1584631701.cds118.da2.p", "x-cache-status": "HIT" }, "stackpath", "miss"],
    ["StackPath in front of Varnish", { "x-hw": "1584631701.cds045.da2.hn", "x-varnish": "32771" }, "stackpath", "hit"],
    ["Google in front of Varnish", { via: "1.1 google, 1.1 varnish", "x-cache-status": "miss", "x-varnish": "32771 32770" }, "google", "miss"],
    ["Fastly in front of Google's load balancer", { via: "1.1 google", "x-cache": "HIT", "x-served-by": "cache-cdg20741-CDG", "x-cache-status": "miss" }, "fastly", "hit"],
  ])("%s", (_label, headers, cdn, verdict) => {
    expect(readCacheStatus(headers)).toMatchObject({ cdn, verdict });
  });
});

describe("what the newer caches' verdicts mean for the run's not_cached reason", () => {
  const reasonOf = (status: number, headers: Headers): NotCachedReason | null => {
    const cache = readCacheStatus(headers);
    return whyNotCached({ status, headers }, cache, readFreshness({ requestHeaders: {}, status, responseHeaders: headers, cdn: cache.cdn, receivedAt: new Date() }));
  };
  it.each<[label: string, status: number, headers: Headers, reason: NotCachedReason | null]>([
    ["Imperva's V is served from cache", 200, { "x-iinfo": "4-152072-152074 PVNN RT(1415979066955 4498)" }, null],
    ["Imperva's N is a miss", 200, { "x-iinfo": "4-152072-152074 PNNN RT(1415979066955 4498)" }, "miss"],
    ["Google's uncacheable is a CDN bypass", 200, { via: "1.1 google", "x-cache-status": "uncacheable" }, "cdn_bypass"],
    ["Alibaba's TCP_REFRESH_HIT is served from cache", 200, { eagleid: "3b25", "x-cache": "HIT TCP_REFRESH_HIT dirn:11:927701954" }, null],
    ["Tencent's log id alone still names a cache", 200, { "x-nws-log-uuid": "1373" }, "miss"],
    ["StackPath pulling a 404 from the origin", 404, { "x-hw": "1584631701.cds118.da2.p" }, "http_error"],
  ])("%s", (_label, status, headers, reason) => {
    expect(reasonOf(status, headers)).toBe(reason);
  });
});
