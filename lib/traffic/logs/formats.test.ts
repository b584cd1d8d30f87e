import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { type AccessLogOptions, type AccessLogRead, readAccessLog } from "@/lib/traffic/logs";

// Real logs of real servers (fixtures/README.md): nginx, Apache and Caddy were each sent the same
// 24 requests by fixtures/generate.sh; CloudFront's and Cloudflare's lines are their documentation's.
const fixture = (name: string) => path.join(import.meta.dirname, "fixtures", name);
const options: AccessLogOptions = { domain: "shop.example.com", keepsQuery: (p) => p === "/products/" };
const read = (name: string, opts: Partial<AccessLogOptions> = {}) => readAccessLog(createReadStream(fixture(name)), { ...options, ...opts });
const table = (result: AccessLogRead) => Object.fromEntries([...result.visits].map(([day, paths]) => [day, Object.fromEntries(paths)]));

/** The pages every server's log counts the same. */
const PAGES = { "/about/": 4, "/blog/hello.html": 2, "/products/?page=2": 1, "/caf%C3%A9/": 1, "/~team/": 1, "/about/index.html": 1 };
const DAY = "2026-11-28";

describe("readAccessLog on each server's own log", () => {
  it.each(["nginx-combined.log", "apache-combined.log", "apache-vhost-combined.log"])("%s: the Combined Log Format", async (name) => {
    const result = await read(name);
    // 24 requests: GET / twice from browsers (one for another host, which CLF does not say),
    // /about/ four times (a ?utm_ query dropped, a 304, an absolute-form target), //blog//hello.html
    // as /blog/hello.html, %c3%a9 in capitals and %7E as ~; 5 assets (css, js, png, ico, sitemap.xml)
    // and robots.txt; HEAD and POST; a 404; Googlebot and an empty user agent. curl's robots.txt is an asset first.
    expect(result.counts).toEqual({
      lines: 24,
      counted: 13,
      broken: 0,
      paths: 8,
      skipped: { method: 2, status: 1, host: 0, asset: 6, bot: 2 },
      format: "combined",
      truncated: false,
    });
    expect(table(result)).toEqual({ [DAY]: { ...PAGES, "/": 2, "/feed": 1 } });
  });

  it("apache-common.log: the Common Log Format has no user agent, so no line is a bot", async () => {
    const result = await read("apache-common.log");
    expect(result.counts).toMatchObject({ lines: 24, counted: 15, broken: 0, skipped: { method: 2, status: 1, host: 0, asset: 6, bot: 0 }, format: "common" });
    expect(table(result)).toEqual({ [DAY]: { ...PAGES, "/": 3, "/blog/hello.html": 3, "/feed": 1 } });
  });

  it("nginx-json.log: escape=json with request_method, request_uri, host and the response's content type", async () => {
    const result = await read("nginx-json.log");
    // The host says other.example.org; /feed was served as application/octet-stream: an asset.
    expect(result.counts).toMatchObject({ lines: 24, counted: 11, broken: 0, paths: 7, skipped: { method: 2, status: 1, host: 1, asset: 7, bot: 2 }, format: "json" });
    expect(table(result)).toEqual({ [DAY]: { ...PAGES, "/": 1 } });
  });

  it("nginx-json-request.log: escape=json with $request, $time_local and $http_host", async () => {
    const result = await read("nginx-json-request.log");
    expect(result.counts).toMatchObject({ lines: 24, counted: 12, broken: 0, skipped: { method: 2, status: 1, host: 1, asset: 6, bot: 2 }, format: "json" });
    expect(table(result)).toEqual({ [DAY]: { ...PAGES, "/": 1, "/feed": 1 } });
  });

  it("caddy.log: Caddy's default JSON access log (a 304 and /feed have no Content-Type: they count)", async () => {
    const result = await read("caddy.log");
    expect(result.counts).toMatchObject({ lines: 24, counted: 12, broken: 0, skipped: { method: 2, status: 1, host: 1, asset: 6, bot: 2 }, format: "caddy" });
    expect(table(result)).toEqual({ [DAY]: { ...PAGES, "/": 1, "/feed": 1 } });
  });

  it("cloudfront.log: AWS's documented example, x-host-header as the site's host", async () => {
    // Three 200s of /index.html asked for as the distribution's own name, three 502s for www.example.com.
    const distribution = await read("cloudfront.log", { domain: "d111111abcdef8.cloudfront.net" });
    expect(distribution.counts).toMatchObject({ lines: 6, counted: 3, broken: 0, skipped: { method: 0, status: 3, host: 0, asset: 0, bot: 0 }, format: "cloudfront" });
    expect(table(distribution)).toEqual({ "2019-12-04": { "/index.html": 3 } });
    const site = await read("cloudfront.log", { domain: "example.com" });
    expect(site.counts).toMatchObject({ counted: 0, skipped: { status: 3, host: 3 } });
  });

  it("cloudfront: a #Fields: line is honoured as given, the user agent decoded", async () => {
    const log = [
      "#Version: 1.0",
      "#Fields: date time cs-method sc-status x-host-header cs-uri-stem cs-uri-query cs(User-Agent)",
      "2024-03-01\t23:59:59\tGET\t200\twww.example.com\t/shoes/\tcolor=red\tMozilla/5.0%20(X11;%20Linux%20x86_64;%20rv:125.0)%20Gecko/20100101%20Firefox/125.0",
      "2024-03-02\t00:00:01\tGET\t200\twww.example.com\t/shoes/\t-\tGooglebot/2.1%20(+http://www.google.com/bot.html)",
      "2024-03-02\t00:00:02\tGET\t200\twww.example.com\t/shoes/\t-\t-",
    ].join("\n");
    const result = await readAccessLog(Readable.from([Buffer.from(log)]), { domain: "example.com", keepsQuery: () => false });
    expect(result.counts).toMatchObject({ lines: 3, counted: 1, skipped: { bot: 2 } });
    expect(table(result)).toEqual({ "2024-03-01": { "/shoes/": 1 } });
  });

  it("cloudfront: standard logging v2's JSON output, with the W3C fields' names as keys", async () => {
    const record = {
      date: "2024-03-01",
      time: "10:00:00",
      "cs-method": "GET",
      "x-host-header": "www.example.com",
      "cs-uri-stem": "/shoes/",
      "sc-status": "200",
      "cs(User-Agent)": "Mozilla/5.0%20(X11;%20Linux%20x86_64;%20rv:125.0)%20Gecko/20100101%20Firefox/125.0",
      "sc-content-type": "text/html",
    };
    const result = await readAccessLog(Readable.from([Buffer.from(`${JSON.stringify(record)}\n`)]), { domain: "example.com", keepsQuery: () => false });
    expect(result.counts).toMatchObject({ lines: 1, counted: 1, format: "cloudfront" });
  });

  it("cloudflare.log: Cloudflare's documented sample (an image of www.theburritobot.com)", async () => {
    const result = await read("cloudflare.log", { domain: "theburritobot.com" });
    expect(result.counts).toMatchObject({ lines: 1, counted: 0, skipped: { asset: 1 }, format: "cloudflare" });
  });

  it("cloudflare: EdgeStartTimestamp as rfc3339, unix and unixnano; a Worker's subrequest is not a visitor", async () => {
    const ua = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15";
    const line = (fields: Record<string, unknown>) =>
      JSON.stringify({
        ClientRequestHost: "www.theburritobot.com",
        ClientRequestMethod: "GET",
        ClientRequestURI: "/menu?lang=es",
        EdgeResponseStatus: 200,
        ClientRequestUserAgent: ua,
        EdgeResponseContentType: "text/html; charset=utf-8",
        RayID: "3a6050bcbe121a87",
        ...fields,
      });
    const log = [
      line({ EdgeStartTimestamp: "2017-09-29T16:28:24Z" }),
      line({ EdgeStartTimestamp: 1506702504 }),
      line({ EdgeStartTimestamp: 1506702504433000200 }),
      line({ EdgeStartTimestamp: "2017-09-29T23:30:00-02:00" }),
      line({ EdgeStartTimestamp: "2017-09-29T16:28:24Z", ClientRequestSource: "edgeWorkerFetch" }),
      line({ EdgeStartTimestamp: "2017-09-29T16:28:24Z", EdgeResponseContentType: "application/json" }),
    ].join("\n");
    const result = await readAccessLog(Readable.from([Buffer.from(log)]), { domain: "theburritobot.com", keepsQuery: () => true });
    expect(result.counts).toMatchObject({ lines: 6, counted: 4, skipped: { bot: 1, asset: 1 }, format: "cloudflare" });
    expect(table(result)).toEqual({ "2017-09-29": { "/menu?lang=es": 3 }, "2017-09-30": { "/menu?lang=es": 1 } });
  });
});

describe("readAccessLog's input", () => {
  it("gunzips a gzip body, several members concatenated (rotated files joined by cat) included", async () => {
    const bytes = readFileSync(fixture("nginx-combined.log"));
    const gz = Buffer.concat([gzipSync(bytes), gzipSync(bytes)]);
    // Chunks of 1 byte at first: the magic bytes are recognised across chunks.
    const chunks = [gz.subarray(0, 1), gz.subarray(1, 2), gz.subarray(2, 1000), gz.subarray(1000)];
    const result = await readAccessLog(Readable.from(chunks), options);
    expect(result.counts).toMatchObject({ lines: 48, counted: 26, broken: 0 });
    expect(result.visits.get(DAY)?.get("/about/")).toBe(8);
  });

  it("keeps what a truncated gzip file held before its damage, counting the damage as one broken line", async () => {
    const gz = gzipSync(readFileSync(fixture("caddy.log")));
    const result = await readAccessLog(Readable.from([gz.subarray(0, gz.length - 40)]), options);
    expect(result.counts.broken).toBe(1);
    expect(result.counts.counted).toBeGreaterThan(0);
  });

  it("reads a web ReadableStream as well as a Node stream", async () => {
    const bytes = readFileSync(fixture("apache-combined.log"));
    const web = new Response(bytes).body!;
    const result = await readAccessLog(web as unknown as AsyncIterable<Uint8Array>, options);
    expect(result.counts.counted).toBe(13);
  });

  it("splits lines across chunk boundaries, CRLF included", async () => {
    const text = readFileSync(fixture("nginx-json.log"), "utf8").replaceAll("\n", "\r\n");
    const bytes = Buffer.from(text);
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
    const result = await readAccessLog(Readable.from(chunks), options);
    expect(result.counts).toMatchObject({ lines: 24, counted: 11, broken: 0 });
  });
});
