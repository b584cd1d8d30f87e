import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { BLOCK_BODY_BYTES, type BlockVendor, blockBodyBytes, blockedBy } from "./blocked";
import { readCacheStatus } from "./cache-status";
import { whyNotCached } from "./not-cached";

type Row = [name: string, status: number, headers: Record<string, string>, body: string, vendor: BlockVendor | null];

const CF = { server: "cloudflare", "cf-ray": "8c1f2a3b4c5d6e7f-CDG" };
const cfChallenge = '<!DOCTYPE html><html><head><title>Just a moment...</title><script>window._cf_chl_opt={cvId:"3"}</script></head></html>';
const cf1020 = "<title>Attention Required! | Cloudflare</title><h1>Sorry, you have been blocked</h1>";
const akamaiDenied = "<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY><H1>Access Denied</H1>Reference&#32;#18.2f1c1002.1700000000.1a2b3c</BODY></HTML>".replace("&#32;", " ");
const incapsulaIncident = "<html><head></head><body>Request unsuccessful. Incapsula incident ID: 1234000560078901234-567890123456789</body></html>";
const incapsulaChallenge = '<html><head><META NAME="robots" CONTENT="noindex,nofollow"><script src="/_Incapsula_Resource?SWJIYLWA=5074a744e2e3d891814e9a2dace20bd4"></script></head></html>';
const datadomeCaptcha = "<html><script>var dd={'rt':'c','host':'geo.captcha-delivery.com'}</script><script src=\"https://ct.captcha-delivery.com/c.js\"></script></html>";
const pxCaptcha = '<html><div id="px-captcha"></div><script>window._pxAppId="PXabc123"</script></html>';
const sucuriPage = "<title>Sucuri WebSite Firewall - Access Denied</title>";
const recaptcha = '<html><title>Please verify</title><script src="https://www.google.com/recaptcha/api.js"></script></html>';

/** One row per fingerprint of docs/guide/site-owners/cache-detection.md ("Bot protection"), then the answers that must not be read as blocked. */
const ROWS: Row[] = [
  ["Cloudflare: cf-mitigated: challenge (any status)", 403, { ...CF, "cf-mitigated": "challenge" }, "", "cloudflare"],
  ["Cloudflare: cf-mitigated on a 200 is still a challenge", 200, { "cf-mitigated": "challenge", "cf-cache-status": "HIT" }, "", "cloudflare"],
  ["AWS WAF: x-amzn-waf-action: challenge (202)", 202, { "x-amzn-waf-action": "challenge" }, "", "aws_waf"],
  ["AWS WAF: x-amzn-waf-action: captcha (405)", 405, { "x-amzn-waf-action": "captcha" }, "", "aws_waf"],
  ["Vercel: x-vercel-mitigated: challenge", 429, { "x-vercel-mitigated": "challenge", server: "Vercel" }, "", "vercel"],
  ["Vercel: x-vercel-mitigated: deny", 403, { "x-vercel-mitigated": "deny" }, "", "vercel"],
  ["Sucuri: x-sucuri-block", 403, { "x-sucuri-block": "BLK005", "x-sucuri-id": "11005" }, "", "sucuri"],
  ["Sucuri: its block page on a 403", 403, { server: "Sucuri/Cloudproxy" }, sucuriPage, "sucuri"],
  ["DataDome: a 403 with x-datadome", 403, { "x-datadome": "protected", "x-dd-b": "1" }, datadomeCaptcha, "datadome"],
  ["DataDome: its captcha page on a 403, headers stripped", 403, {}, datadomeCaptcha, "datadome"],
  ["Imperva: x-iinfo with an incident page", 403, { "x-iinfo": "9-12345678-0 0NNN RT(1700000000000 0) q(0 -1 -1 -1) r(0 -1)" }, incapsulaIncident, "imperva"],
  ["Imperva: x-iinfo with its JavaScript challenge, served as a 200", 200, { "x-iinfo": "9-12345678-0 0CNN RT(1700000000000 0) q(0 -1 -1 -1) r(0 -1)" }, incapsulaChallenge, "imperva"],
  ["HUMAN (PerimeterX): a 403 with the _pxhd cookie", 403, { "set-cookie": "_pxhd=abc:def; path=/" }, "", "human"],
  ["HUMAN (PerimeterX): its Press & Hold captcha", 403, {}, pxCaptcha, "human"],
  ["Akamai: AkamaiGHost's Access Denied page with a Reference #", 403, { server: "AkamaiGHost", "content-type": "text/html" }, akamaiDenied, "akamai"],
  ["Cloudflare: a challenge page without cf-mitigated (503)", 503, CF, cfChallenge, "cloudflare"],
  ["Cloudflare: the 1020 block page (403)", 403, CF, cf1020, "cloudflare"],
  ["Other: a 403 whose page is a reCAPTCHA", 403, {}, recaptcha, "other"],
  ["Other: a 429 whose page is a Turnstile", 429, {}, '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>', "other"],
  // Negatives: the site's own answers.
  ["a plain 403 is the site's error", 403, { server: "nginx" }, "<h1>403 Forbidden</h1>", null],
  ["a plain 429 from Cloudflare, no challenge page", 429, CF, "<h1>Too many requests</h1>", null],
  ["a 503 maintenance page behind Cloudflare", 503, CF, "<h1>Back soon</h1>", null],
  [
    "Imperva's cached page: x-iinfo without an incident or a challenge",
    200,
    { "x-iinfo": "9-12345678-12345679 NNNY CT(0 0 0) RT(1700000000000 2) q(0 0 0 -1) r(1 1) U5", "content-length": "900" },
    "<html><p>A product page</p></html>",
    null,
  ],
  ["a 200 page", 200, { "cf-cache-status": "HIT", ...CF }, "", null],
  ["Akamai's own 403 without its page", 403, { server: "AkamaiGHost" }, "", null],
  ["a reCAPTCHA on a 200 contact page", 200, {}, recaptcha, null],
  ["DataDome's header on an allowed page", 200, { "x-datadome": "protected" }, "", null],
  ["a 404 mentioning a challenge", 404, CF, cfChallenge, null],
];

describe("blockedBy", () => {
  it.each(ROWS)("%s", (_name, status, headers, body, vendor) => {
    // The body as warmCall keeps it: only when blockBodyBytes asks for it.
    const kept = blockBodyBytes(status, { ...headers, "content-length": headers["content-length"] ?? String(body.length) }) ? Buffer.from(body) : null;
    expect(blockedBy({ status, headers, body: kept })).toBe(vendor);
  });

  it("reads the start of a compressed page, even cut mid-stream", () => {
    const page = Buffer.from(`${cfChallenge}${"<p>filler</p>".repeat(5000)}`);
    for (const [encoding, compress] of [
      ["gzip", zlib.gzipSync],
      ["br", zlib.brotliCompressSync],
      ["deflate", zlib.deflateSync],
    ] as const) {
      const cut = compress(page).subarray(0, 200);
      expect(blockedBy({ status: 503, headers: { ...CF, "content-encoding": encoding }, body: cut }), encoding).toBe("cloudflare");
    }
  });

  it("keeps no body of a 200 page, nor of Imperva's larger pages", () => {
    expect(blockBodyBytes(200, { "content-type": "text/html" })).toBe(0);
    expect(blockBodyBytes(404, {})).toBe(0);
    expect(blockBodyBytes(200, { "x-iinfo": "9-1-2 NNNY", "content-length": "48000" })).toBe(0);
    expect(blockBodyBytes(200, { "x-iinfo": "9-1-2 NNNY" })).toBe(0);
    expect(blockBodyBytes(200, { "x-iinfo": "9-1-2 0CNN", "content-length": "700" })).toBe(BLOCK_BODY_BYTES);
    for (const status of [202, 401, 403, 405, 429, 503]) expect(blockBodyBytes(status, {})).toBe(BLOCK_BODY_BYTES);
  });

  it("makes the call blocked: not a hit, not a miss, not an http_error", () => {
    const headers = { "cf-mitigated": "challenge", "cf-cache-status": "HIT", ...CF };
    expect(whyNotCached({ status: 200, headers }, readCacheStatus(headers), null, blockedBy({ status: 200, headers }))).toBe("blocked");
    const refused = { ...CF, "cf-mitigated": "challenge" };
    expect(whyNotCached({ status: 403, headers: refused }, readCacheStatus(refused), null, blockedBy({ status: 403, headers: refused }))).toBe("blocked");
  });
});
