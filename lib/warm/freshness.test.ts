import { describe, expect, it } from "vitest";
import { readFreshness } from "./freshness";

/**
 * Cases from RFC 9111/9213 and from the public HTTP caching test suite (github.com/http-tests/cache-tests,
 * tests/*.mjs): each test names the suite's case id it is taken from. The suite's `expected_type:
 * "cached"` is a response still fresh for a shared cache; `not_cached` one that a cache may not
 * reuse without going back to the origin.
 */
const receivedAt = new Date("2026-03-01T12:00:00Z");
/** An HTTP-date `offset` seconds from receipt, as the suite writes `['Date', 0]` or `['Expires', -7200]`. */
const at = (offset: number) => new Date(receivedAt.getTime() + offset * 1000).toUTCString();
const seconds = (n: number) => new Date(receivedAt.getTime() + n * 1000);

function read(responseHeaders: Record<string, string | string[]>, options: { status?: number; cdn?: string | null; requestHeaders?: Record<string, string> } = {}) {
  return readFreshness({ requestHeaders: options.requestHeaders ?? {}, status: options.status ?? 200, responseHeaders, cdn: options.cdn ?? null, receivedAt });
}

describe("lifetime: s-maxage over max-age over Expires (RFC 9111 §4.2.1)", () => {
  it("freshness-max-age: max-age=3600 lives an hour", () => {
    expect(read({ date: at(0), "cache-control": "max-age=3600" })).toMatchObject({
      storable: true,
      notStorableBecause: null,
      lifetimeSeconds: 3600,
      ageSeconds: 0,
      freshUntil: seconds(3600),
      source: "cache-control",
      directivesFrom: "cache-control",
      heuristic: false,
      revalidatesEveryRequest: false,
      staleOnArrival: false,
    });
  });

  it.each([
    ["freshness-max-age-s-maxage-shared-longer", "max-age=3600, s-maxage=1", 1],
    ["freshness-max-age-s-maxage-shared-longer-reversed", "s-maxage=1, max-age=3600", 1],
    ["freshness-max-age-s-maxage-shared-shorter", "max-age=1, s-maxage=3600", 3600],
    ["freshness-s-maxage-shared", "s-maxage=3600", 3600],
  ])("%s: a shared cache takes s-maxage (%s)", (_, control, lifetime) => {
    expect(read({ date: at(0), "cache-control": control }).lifetimeSeconds).toBe(lifetime);
  });

  it("freshness-max-age-s-maxage-shared-longer-multiple: s-maxage on its own Cache-Control line", () => {
    expect(read({ date: at(0), "cache-control": ["max-age=3600", "s-maxage=1"] }).lifetimeSeconds).toBe(1);
  });

  it("freshness-max-age-s-maxage-shared-shorter-expires: s-maxage wins over max-age=0 and a past Expires", () => {
    expect(read({ date: at(0), expires: at(-10), "cache-control": "max-age=0, s-maxage=3600" })).toMatchObject({ lifetimeSeconds: 3600, revalidatesEveryRequest: false });
  });

  it("public, max-age=0, s-maxage=3600: browsers revalidate, the CDN keeps it an hour", () => {
    expect(read({ date: at(0), "cache-control": "public, max-age=0, s-maxage=3600" })).toMatchObject({
      storable: true,
      lifetimeSeconds: 3600,
      freshUntil: seconds(3600),
      revalidatesEveryRequest: false,
      staleOnArrival: false,
      source: "cache-control",
    });
  });

  it.each([
    ["freshness-max-age-expires", { "cache-control": "max-age=3600", expires: at(-7200) }],
    ["freshness-max-age-expires-invalid", { "cache-control": "max-age=3600", expires: "0" }],
  ])("%s: max-age makes Expires ignored", (_, headers) => {
    expect(read({ date: at(0), ...headers })).toMatchObject({ lifetimeSeconds: 3600, source: "cache-control" });
  });

  it("freshness-max-age-0-expires: max-age=0 beats a future Expires, and the answer is revalidated on every request", () => {
    expect(read({ date: at(0), expires: at(3600), "cache-control": "max-age=0" })).toMatchObject({ storable: true, lifetimeSeconds: 0, revalidatesEveryRequest: true, freshUntil: receivedAt });
  });

  it("freshness-max-age-case-insenstive and freshness-max-age-extension: directive names in any case, unknown ones ignored", () => {
    expect(read({ date: at(0), "cache-control": "MaX-aGe=3600" }).lifetimeSeconds).toBe(3600);
    expect(read({ date: at(0), "cache-control": "foobar, max-age=3600" }).lifetimeSeconds).toBe(3600);
  });

  it.each([
    ["freshness-max-age-max-minus-1", "max-age=2147483647", 2147483647],
    ["freshness-max-age-max-plus", "max-age=99999999999", 2147483648],
  ])("%s: a lifetime beyond 2^31 counts as 2^31 (§1.2.2)", (_, control, lifetime) => {
    expect(read({ date: at(0), "cache-control": control }).lifetimeSeconds).toBe(lifetime);
  });
});

describe("invalid max-age is stale (RFC 9111 §4.2.1, §1.2.2)", () => {
  it.each([
    ["freshness-max-age-negative", "max-age=-3600"],
    ["freshness-max-age-single-quoted", "max-age='3600'"],
    ["freshness-max-age-space-before-equals", "max-age =3600"],
    ["freshness-max-age-space-after-equals", "max-age= 3600"],
    ["freshness-max-age-100a", "max-age=3600a"],
    ["freshness-max-age-decimal-five", "max-age=3600.5"],
    ["an empty argument", "max-age="],
  ])("%s (%s): lifetime 0, even beside a future Expires", (_, control) => {
    expect(read({ date: at(0), expires: at(3600), "cache-control": control })).toMatchObject({ storable: true, lifetimeSeconds: 0, revalidatesEveryRequest: true });
  });

  it.each([
    ["freshness-max-age-quoted", 'max-age="3600"', 3600],
    ["freshness-max-age-leading-zero", "max-age=003600", 3600],
    ["freshness-max-age-ignore-quoted", 'extension="max-age=3600", max-age=1', 1],
    ["freshness-max-age-ignore-quoted-rev", 'max-age=1, extension="max-age=3600"', 1],
  ])("%s (%s): read as %i s", (_, control, lifetime) => {
    expect(read({ date: at(0), "cache-control": control }).lifetimeSeconds).toBe(lifetime);
  });

  it.each([
    ["freshness-max-age-two-fresh-stale-sameline", "max-age=1800, max-age=1"],
    ["freshness-max-age-two-fresh-stale-sepline", ["max-age=1800", "max-age=1"]],
  ])("%s: of two max-age, the first occurrence (§4.2.1)", (_, control) => {
    expect(read({ date: at(0), "cache-control": control }).lifetimeSeconds).toBe(1800);
  });
});

describe("age on arrival: Age and the Date skew (RFC 9111 §4.2.3)", () => {
  it("freshness-max-age-age: an Age beyond the lifetime is stale on arrival", () => {
    expect(read({ date: at(0), "cache-control": "max-age=3600", age: "7200" })).toMatchObject({
      storable: true,
      lifetimeSeconds: 3600,
      ageSeconds: 7200,
      freshUntil: seconds(-3600),
      staleOnArrival: true,
      revalidatesEveryRequest: false,
    });
  });

  it("an Age within the lifetime leaves the rest of it", () => {
    expect(read({ date: at(0), "cache-control": "s-maxage=3600", age: "600" })).toMatchObject({ ageSeconds: 600, freshUntil: seconds(3000), staleOnArrival: false });
  });

  it("freshness-max-age-date: a Date two hours old ages the answer by two hours", () => {
    expect(read({ date: at(-7200), "cache-control": "max-age=3600" })).toMatchObject({ ageSeconds: 7200, staleOnArrival: true });
  });

  it.each([
    ["age-parse-nonnumeric", "abc"],
    ["age-parse-negative", "-7200"],
    ["age-parse-float", "7200.0"],
    ["age-parse-prefix", "0, 7200"],
    ["age-parse-dup-0", "0, 0"],
  ])("%s (Age: %s): fresh, age 0", (_, age) => {
    expect(read({ date: at(0), "cache-control": "max-age=3600", age })).toMatchObject({ ageSeconds: 0, staleOnArrival: false });
  });

  it.each([
    ["age-parse-suffix", "7200, 0", 7200],
    ["age-parse-large-minus-one", "2147483647", 2147483647],
    ["age-parse-large", "2147483648", 2147483648],
    ["age-parse-larger", "2147483649", 2147483648],
  ])("%s (Age: %s): stale", (_, age, seconds) => {
    expect(read({ date: at(0), "cache-control": "max-age=3600", age })).toMatchObject({ ageSeconds: seconds, staleOnArrival: true });
  });

  it("age-parse-suffix-twoline and age-parse-prefix-twoline: the first Age line counts", () => {
    expect(read({ date: at(0), "cache-control": "max-age=3600", age: ["7200", "0"] }).staleOnArrival).toBe(true);
    expect(read({ date: at(0), "cache-control": "max-age=3600", age: ["0", "7200"] }).staleOnArrival).toBe(false);
  });
});

describe("Expires (RFC 9111 §5.3)", () => {
  it("freshness-expires-future: Expires − Date", () => {
    expect(read({ date: at(0), expires: at(30 * 86400) })).toMatchObject({ lifetimeSeconds: 30 * 86400, source: "expires", heuristic: false });
  });

  it.each([
    ["freshness-expires-past", { expires: at(-30 * 86400), date: at(0) }],
    ["freshness-expires-present", { expires: at(0), date: at(0) }],
    ["freshness-expires-old-date", { expires: at(300), date: at(400) }],
    ["freshness-expires-invalid", { expires: "0", date: at(0) }],
    ["freshness-expires-invalid-utc", { expires: "Thu, 18 Aug 2050 02:01:18 UTC", date: at(0) }],
    ["freshness-expires-invalid-aest", { expires: "Thu, 18 Aug 2050 02:01:18 AEST", date: at(0) }],
    ["freshness-expires-invalid-2-digit-year", { expires: "Thu, 18 Aug 50 02:01:18 GMT", date: at(0) }],
    ["freshness-expires-invalid-no-comma", { expires: "Thu 18 Aug 2050 02:01:18 GMT", date: at(0) }],
    ["freshness-expires-invalid-multiple-spaces", { expires: "Thu, 18  Aug  2050 02:01:18 GMT", date: at(0) }],
    ["freshness-expires-invalid-date-dashes", { expires: "Thu, 18-Aug-2050 02:01:18 GMT", date: at(0) }],
    ["freshness-expires-invalid-time-periods", { expires: "Thu, 18 Aug 2050 02.01.18 GMT", date: at(0) }],
    ["freshness-expires-invalid-1-digit-hour", { expires: "Thu, 18 Aug 2050 2:01:18 GMT", date: at(0) }],
  ])("%s: already expired, lifetime 0", (_, headers) => {
    expect(read(headers)).toMatchObject({ storable: true, lifetimeSeconds: 0, source: "expires", revalidatesEveryRequest: true });
  });

  it.each([
    ["freshness-expires-rfc850", "Thursday, 18-Aug-50 02:01:18 GMT"],
    ["freshness-expires-ansi-c", "Thu Aug  8 02:01:18 2050"],
    ["freshness-expires-wrong-case-weekday", "THU, 18 Aug 2050 02:01:18 GMT"],
    ["freshness-expires-wrong-case-month", "Thu, 18 AUG 2050 02:01:18 GMT"],
    ["freshness-expires-wrong-case-tz", "Thu, 18 Aug 2050 02:01:18 gMT"],
    ["freshness-expires-32bit", "Tue, 19 Jan 2038 14:14:08 GMT"],
  ])("%s: a valid HTTP-date in the future (%s)", (_, expires) => {
    const reading = read({ date: at(0), expires });
    expect(reading.source).toBe("expires");
    expect(reading.lifetimeSeconds).toBeGreaterThan(10 * 365 * 86400);
  });

  it("freshness-expires-invalid-date: an invalid Date is the time of receipt", () => {
    expect(read({ date: "foo", expires: at(10) }).lifetimeSeconds).toBe(10);
  });

  it("freshness-expires-age-slow-date: Age beyond Expires − Date is stale", () => {
    expect(read({ date: at(-10), expires: at(10), age: "25" })).toMatchObject({ lifetimeSeconds: 20, ageSeconds: 25, staleOnArrival: true });
  });

  it("freshness-expires-invalid-multiple-lines: the first Expires line counts", () => {
    expect(read({ date: at(0), expires: ["Thu, 18 Aug 2050 2:01:18 GMT", "Thu, 18 Aug 2050 02:01:19 GMT"] }).lifetimeSeconds).toBe(0);
  });
});

describe("status (RFC 9110 §15.1, RFC 9111 §3 and §4.2.2)", () => {
  const lastModified = at(-86400);

  it("heuristic-200-cached: a 200 with Last-Modified is heuristically fresh for a tenth of its age", () => {
    expect(read({ date: at(0), "last-modified": lastModified })).toMatchObject({ storable: true, lifetimeSeconds: 8640, heuristic: true, source: "heuristic" });
  });

  it.each([
    ["heuristic-201-not_cached", 201],
    ["heuristic-202-not_cached", 202],
  ])("%s: a %i is not heuristically cacheable", (_, status) => {
    expect(read({ date: at(0), "last-modified": lastModified }, { status })).toMatchObject({ storable: false, notStorableBecause: "status", lifetimeSeconds: null, freshUntil: null });
  });

  it("a 206 is heuristically cacheable as RFC 9110 §15.1 says (the library never stores it)", () => {
    expect(read({ date: at(0), "last-modified": lastModified }, { status: 206 })).toMatchObject({ storable: true, heuristic: true, lifetimeSeconds: 8640 });
  });

  it.each([201, 202, 299])("status-%i-fresh: a %i with explicit freshness is storable", (status) => {
    expect(read({ date: at(0), "cache-control": "max-age=3600" }, { status })).toMatchObject({ storable: true, lifetimeSeconds: 3600 });
  });

  it("heuristic-599-cached when public is present: public makes any status heuristically cacheable (§5.2.2.9)", () => {
    expect(read({ date: at(0), "last-modified": lastModified, "cache-control": "public" }, { status: 599 })).toMatchObject({ storable: true, heuristic: true, lifetimeSeconds: 8640 });
  });

  it("freshness-none: a 200 without any freshness information is storable, its lifetime the CDN's own", () => {
    expect(read({ date: at(0) })).toMatchObject({ storable: true, lifetimeSeconds: null, freshUntil: null, source: null, directivesFrom: null, revalidatesEveryRequest: false });
  });
});

describe("Authorization on the request (RFC 9111 §3.5)", () => {
  const requestHeaders = { authorization: "Basic dXNlcjpwYXNz" };

  it("other-authorization: not storable by a shared cache", () => {
    expect(read({ date: at(0), "cache-control": "max-age=3600" }, { requestHeaders })).toMatchObject({ storable: false, notStorableBecause: "authorization", lifetimeSeconds: null });
  });

  it.each([
    ["other-authorization-public", "max-age=3600, public", 3600],
    ["other-authorization-must-revalidate", "max-age=3600, must-revalidate", 3600],
    ["other-authorization-smaxage", "s-maxage=3600", 3600],
  ])("%s: %s allows it", (_, control, lifetime) => {
    expect(read({ date: at(0), "cache-control": control }, { requestHeaders })).toMatchObject({ storable: true, lifetimeSeconds: lifetime });
  });

  it("without Authorization the same answer is storable", () => {
    expect(read({ date: at(0), "cache-control": "max-age=3600" }).storable).toBe(true);
  });
});

describe("not storable", () => {
  it.each([
    ["no-store", "max-age=3600, no-store", "no_store"],
    ["private", "private, max-age=3600", "private"],
    ["qualified private", 'private="set-cookie", max-age=3600', "private"],
  ])("%s", (_, control, because) => {
    expect(read({ date: at(0), "cache-control": control })).toMatchObject({ storable: false, notStorableBecause: because, lifetimeSeconds: null, freshUntil: null });
  });

  it("no-store in the request Preheat sent", () => {
    expect(read({ date: at(0), "cache-control": "max-age=3600" }, { requestHeaders: { "cache-control": "no-store" } }).notStorableBecause).toBe("no_store");
  });
});

describe("revalidation and stale windows (RFC 9111 §5.2.2, RFC 5861)", () => {
  it("no-cache: stored, but served only after revalidation", () => {
    expect(read({ date: at(0), "cache-control": "no-cache, max-age=3600" })).toMatchObject({ storable: true, lifetimeSeconds: 0, revalidatesEveryRequest: true });
  });

  it("stale-while-revalidate: max-age=1, stale-while-revalidate=3600 gives the window", () => {
    expect(read({ date: at(0), "cache-control": "max-age=1, stale-while-revalidate=3600" })).toMatchObject({ lifetimeSeconds: 1, staleWhileRevalidateSeconds: 3600, revalidatesEveryRequest: false });
  });

  it("max-age=0 with stale-while-revalidate is served stale while revalidated, unless must-revalidate forbids it", () => {
    expect(read({ date: at(0), "cache-control": "max-age=0, stale-while-revalidate=60" }).revalidatesEveryRequest).toBe(false);
    expect(read({ date: at(0), "cache-control": "max-age=0, stale-while-revalidate=60, must-revalidate" }).revalidatesEveryRequest).toBe(true);
  });

  it("stale-sie-close: stale-if-error gives its window; 0 when absent", () => {
    expect(read({ date: at(0), "cache-control": "max-age=2, stale-if-error=60" })).toMatchObject({ staleIfErrorSeconds: 60, staleWhileRevalidateSeconds: 0 });
  });

  it("proxy-revalidate keeps the lifetime: it only forbids serving stale (§5.2.2.8)", () => {
    expect(read({ date: at(0), "cache-control": "max-age=3600, proxy-revalidate" })).toMatchObject({ lifetimeSeconds: 3600, revalidatesEveryRequest: false });
  });

  it("pragma-response-no-cache: a response Pragma has no meaning for caches (§5.4)", () => {
    expect(read({ date: at(0), "cache-control": "max-age=3600", pragma: "no-cache" })).toMatchObject({ lifetimeSeconds: 3600, revalidatesEveryRequest: false });
    expect(read({ date: at(0), pragma: "no-cache", "last-modified": at(-86400) })).toMatchObject({ heuristic: true, lifetimeSeconds: 8640 });
  });

  it("Set-Cookie and Vary do not change the lifetime (Preheat gives them reasons of their own)", () => {
    expect(read({ date: at(0), "cache-control": "max-age=3600", "set-cookie": "a=1" }).lifetimeSeconds).toBe(3600);
    expect(read({ date: at(0), "cache-control": "max-age=3600", vary: "*" }).lifetimeSeconds).toBe(3600);
  });
});

describe("CDN-Cache-Control (RFC 9213), for any CDN", () => {
  it.each([null, "cloudflare", "akamai", "fastly", "cloudfront", "varnish"])("cdn-max-age: honoured by %s", (cdn) => {
    expect(read({ date: at(0), "cdn-cache-control": "max-age=3600" }, { cdn })).toMatchObject({ lifetimeSeconds: 3600, source: "cdn-cache-control", directivesFrom: "cdn-cache-control" });
  });

  it("cdn-max-age-long-cc-max-age: it replaces a longer Cache-Control", () => {
    expect(read({ date: at(0), "cache-control": "max-age=3600", "cdn-cache-control": "max-age=1" }).lifetimeSeconds).toBe(1);
  });

  it("cdn-max-age-short-cc-max-age, cdn-fresh-cc-nostore: and a shorter or no-store one", () => {
    expect(read({ date: at(0), "cache-control": "max-age=1", "cdn-cache-control": "max-age=3600" }).lifetimeSeconds).toBe(3600);
    expect(read({ date: at(0), "cache-control": "no-store", "cdn-cache-control": "max-age=10000" })).toMatchObject({ storable: true, lifetimeSeconds: 10000 });
  });

  it.each([
    ["cdn-max-age-expires", at(-10000)],
    ["cdn-max-age-cc-max-age-invalid-expires", "0"],
  ])("%s: Expires is ignored under it", (_, expires) => {
    expect(read({ date: at(0), expires, "cdn-cache-control": "max-age=3600" }).lifetimeSeconds).toBe(3600);
  });

  it("cdn-max-age-0-expires: max-age=0 under it, whatever Expires says", () => {
    expect(read({ date: at(0), expires: at(10000), "cdn-cache-control": "max-age=0" })).toMatchObject({ lifetimeSeconds: 0, revalidatesEveryRequest: true });
  });

  it("cdn-max-age-age: Age beyond its lifetime is stale on arrival", () => {
    expect(read({ date: at(0), age: "7200", "cdn-cache-control": "max-age=3600" }).staleOnArrival).toBe(true);
  });

  it.each([
    ["cdn-private", "private", { storable: false, notStorableBecause: "private" }],
    ["cdn-no-cache", "no-cache", { storable: true, revalidatesEveryRequest: true }],
    ["cdn-no-store-cc-fresh", "no-store", { storable: false, notStorableBecause: "no_store" }],
  ])("%s: its %s beats Cache-Control: max-age=10000 and a future Expires", (_, value, expected) => {
    expect(read({ date: at(0), expires: at(10000), "cache-control": "max-age=10000", "cdn-cache-control": value })).toMatchObject(expected);
  });

  it.each([
    ["cdn-cc-invalid-sh-type-unknown", "max-age=10000, &&&&&"],
    ["cdn-max-age-case-insensitive (not a Structured Field key)", "MaX-aGe=3600"],
  ])("%s: a value that is not a Structured Field Dictionary is ignored whole", (_, value) => {
    expect(read({ date: at(0), "cache-control": "no-store", "cdn-cache-control": value })).toMatchObject({ storable: false, directivesFrom: "cache-control" });
  });

  it.each([
    ["cdn-max-age-space-before-equals", "max-age =100"],
    ["cdn-max-age-space-after-equals", "max-age= 100"],
  ])("%s: Cache-Control applies instead", (_, value) => {
    expect(read({ date: at(0), "cache-control": "max-age=1", "cdn-cache-control": value })).toMatchObject({ lifetimeSeconds: 1, source: "cache-control" });
  });

  it("cdn-cc-invalid-sh-type-wrong: a max-age of the wrong type is ignored alone", () => {
    expect(read({ date: at(0), "cache-control": "no-store", "cdn-cache-control": 'max-age="10000"' })).toMatchObject({ storable: true, lifetimeSeconds: null, directivesFrom: "cdn-cache-control" });
  });

  it("cdn-max-age-extension and cdn-max-age-max-plus", () => {
    expect(read({ date: at(0), "cdn-cache-control": "foobar, max-age=3600" }).lifetimeSeconds).toBe(3600);
    expect(read({ date: at(0), "cdn-cache-control": "max-age=99999999999" }).lifetimeSeconds).toBe(2147483648);
  });

  it("a cache named by its Cache-Status header, whatever the name, is any CDN", () => {
    for (const cdn of ["ExampleCDN", "constructor", "__proto__"]) expect(read({ date: at(0), "cdn-cache-control": "max-age=3600" }, { cdn }).lifetimeSeconds).toBe(3600);
  });

  it("nginx's proxy cache reads Cache-Control only", () => {
    expect(read({ date: at(0), "cache-control": "max-age=60", "cdn-cache-control": "max-age=3600" }, { cdn: "nginx" }).lifetimeSeconds).toBe(60);
  });
});

describe("Cloudflare-CDN-Cache-Control (Cloudflare only)", () => {
  const headers = { date: at(0), "cache-control": "max-age=60", "cdn-cache-control": "max-age=600", "cloudflare-cdn-cache-control": "max-age=3600" };

  it("comes before CDN-Cache-Control for Cloudflare", () => {
    expect(read(headers, { cdn: "cloudflare" })).toMatchObject({ lifetimeSeconds: 3600, source: "cloudflare-cdn-cache-control" });
  });

  it("is for Cloudflare alone", () => {
    expect(read(headers, { cdn: "fastly" })).toMatchObject({ lifetimeSeconds: 600, source: "cdn-cache-control" });
    expect(read(headers, { cdn: null })).toMatchObject({ lifetimeSeconds: 600, source: "cdn-cache-control" });
  });

  it("its no-store keeps Cloudflare from storing what Cache-Control allows", () => {
    expect(read({ date: at(0), "cache-control": "s-maxage=3600", "cloudflare-cdn-cache-control": "no-store" }, { cdn: "cloudflare" }).notStorableBecause).toBe("no_store");
  });
});

describe("Surrogate-Control (Fastly, Akamai, Varnish set-ups)", () => {
  it("surrogate-max-age: Fastly takes it before CDN-Cache-Control and Cache-Control", () => {
    expect(read({ date: at(0), "cache-control": "max-age=0", "cdn-cache-control": "max-age=60", "surrogate-control": "max-age=86400, stale-while-revalidate=60" }, { cdn: "fastly" })).toMatchObject({
      lifetimeSeconds: 86400,
      staleWhileRevalidateSeconds: 60,
      source: "surrogate-control",
    });
  });

  it("surrogate-max-age-long-cc-max-age: a shorter Surrogate-Control wins", () => {
    expect(read({ date: at(0), "cache-control": "max-age=3600", "surrogate-control": "max-age=1" }, { cdn: "fastly" }).lifetimeSeconds).toBe(1);
  });

  it("surrogate-no-store-cc-fresh: its no-store wins", () => {
    expect(read({ date: at(0), expires: at(10000), "cache-control": "max-age=10000", "surrogate-control": "no-store" }, { cdn: "fastly" }).notStorableBecause).toBe("no_store");
  });

  it("surrogate-max-age-other-target: a directive addressed to another surrogate is not Preheat's CDN's", () => {
    expect(read({ date: at(0), "cache-control": "max-age=60", "surrogate-control": "max-age=3600;not-for-you" }, { cdn: "fastly" })).toMatchObject({
      lifetimeSeconds: 60,
      directivesFrom: "cache-control",
    });
  });

  it("surrogate-max-age-expires, surrogate-max-age-age", () => {
    expect(read({ date: at(0), expires: at(-10000), "surrogate-control": "max-age=3600" }, { cdn: "fastly" }).lifetimeSeconds).toBe(3600);
    expect(read({ date: at(0), age: "7200", "surrogate-control": "max-age=3600" }, { cdn: "fastly" }).staleOnArrival).toBe(true);
  });

  it("Akamai and Varnish: after CDN-Cache-Control", () => {
    const headers = { date: at(0), "cdn-cache-control": "max-age=600", "surrogate-control": "max-age=3600" };
    expect(read(headers, { cdn: "akamai" }).source).toBe("cdn-cache-control");
    expect(read({ date: at(0), "surrogate-control": "max-age=3600" }, { cdn: "akamai" }).source).toBe("surrogate-control");
    expect(read({ date: at(0), "surrogate-control": "max-age=3600" }, { cdn: "varnish" }).source).toBe("surrogate-control");
  });

  it("ESI's content directive alone leaves Cache-Control in charge", () => {
    expect(read({ date: at(0), "cache-control": "max-age=60", "surrogate-control": 'content="ESI/1.0"' }, { cdn: "akamai" }).lifetimeSeconds).toBe(60);
  });

  it("Cloudflare and an unknown CDN do not read it", () => {
    const headers = { date: at(0), "cache-control": "max-age=60", "surrogate-control": "max-age=3600" };
    expect(read(headers, { cdn: "cloudflare" }).lifetimeSeconds).toBe(60);
    expect(read(headers, { cdn: null }).lifetimeSeconds).toBe(60);
  });
});
