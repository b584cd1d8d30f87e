import http from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline, Readable } from "node:stream";
import zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fetchXmlSource, isTransient } from "@/lib/sources";
import { gunzipIfCompressed } from "@/lib/sources/gzip";
import { closeOutboundAgent } from "./agent";
import { FetchError, guardedCount, guardedFetch, guardedRequest } from "./index";

/**
 * Every outbound connection is released on every path: a socket left open and unread holds one of
 * the origin's pooled connections for good, and once the pool is full every later job hangs.
 */

const CAP = 64 * 1024;
const URLSET_HEAD = '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';
const ENTRIES = Buffer.from("<url><loc>http://shop.test/page</loc></url>".repeat(400));

/** `head`, then `chunk` again and again until the client goes away. */
function* forever(head: string | Buffer, chunk: string | Buffer) {
  yield Buffer.from(head);
  for (;;) yield Buffer.from(chunk);
}

function sendForever(res: http.ServerResponse, body: Generator<Buffer>, gzip = false) {
  const source = Readable.from(body);
  // SYNC_FLUSH: each chunk leaves at once, compressed, instead of after megabytes of input.
  if (gzip) pipeline(source, zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH }), res, () => {});
  else pipeline(source, res, () => {});
}

let server: http.Server;
let origin: string;
let requests: string[] = [];
/** The server's sockets, each with whether it has closed. */
let sockets: { closed: boolean }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    requests.push(path);
    switch (path) {
      case "/hello":
        return void res.end("hello");
      case "/endless.xml":
        res.writeHead(200, { "content-type": "application/xml" });
        return sendForever(res, forever(URLSET_HEAD, ENTRIES));
      case "/endless.xml.gz":
        res.writeHead(200, { "content-type": "application/x-gzip" });
        return sendForever(res, forever(URLSET_HEAD, ENTRIES), true);
      case "/endless-garbage.xml":
        res.writeHead(200, { "content-type": "application/xml" });
        return sendForever(res, forever("not XML at all", "still not XML "));
      case "/endless-garbage.xml.gz":
        res.writeHead(200, { "content-type": "application/x-gzip" });
        return sendForever(res, forever("not XML at all", "still not XML "), true);
      case "/missing-endless.xml":
        res.writeHead(404, { "content-type": "text/html" });
        return sendForever(res, forever("<h1>Not found</h1>", "<p>padding</p>"));
      case "/stall.xml":
        // Headers and the start of a body, then nothing.
        res.writeHead(200, { "content-type": "application/xml" });
        return void res.write(URLSET_HEAD);
      case "/redirect-endless":
        res.writeHead(302, { location: "/hello", "content-type": "text/html" });
        return sendForever(res, forever("<p>moved</p>", "<p>padding</p>"));
      case "/redirect-small":
        return void res.writeHead(302, { location: "/hello" }).end("moved");
      case "/redirect-bad-host":
        return void res.writeHead(302, { location: "http://[bad" }).end();
      case "/redirect-javascript":
        return void res.writeHead(302, { location: "javascript:alert(1)" }).end();
      default:
        res.writeHead(404).end();
    }
  });
  server.on("connection", (socket) => {
    const entry = { closed: false };
    sockets.push(entry);
    socket.on("close", () => (entry.closed = true));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  process.env.PREHEAT_ALLOW_PRIVATE_NETWORK = "true";
  requests = [];
  sockets = [];
});
afterEach(async () => {
  delete process.env.PREHEAT_ALLOW_PRIVATE_NETWORK;
  await closeOutboundAgent();
});

const openSockets = () => new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));

/** The number of sockets still open on the server once they have had up to 2 s to close. */
async function settledSockets(): Promise<number> {
  const deadline = Date.now() + 2_000;
  let count = await openSockets();
  while (count > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    count = await openSockets();
  }
  return count;
}

async function readAll(body: Readable): Promise<string> {
  let text = "";
  for await (const chunk of body) text += chunk;
  return text;
}

const smallLimits = { maxBytes: CAP, timeoutMs: 10_000 };

describe("a body over the cap", () => {
  it.each<[string, () => Promise<unknown>]>([
    ["guardedRequest, read by its consumer", () => guardedRequest(`${origin}/endless.xml`, { maxBytes: CAP }).then((response) => readAll(response.body))],
    ["guardedCount", () => guardedCount(`${origin}/endless.xml`, { maxBytes: CAP })],
    ["fetchXmlSource, a plain body", () => fetchXmlSource(`${origin}/endless.xml`, smallLimits)],
    ["fetchXmlSource, a .xml.gz served as is", () => fetchXmlSource(`${origin}/endless.xml.gz`, smallLimits)],
  ])("%s: 100 downloads fail as too_large, and leave no socket open", async (_path, download) => {
    // More at once than the agent's 64 connections per origin: a leak would leave the rest waiting.
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, download));
    for (const outcome of outcomes) {
      expect(outcome.status).toBe("rejected");
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(FetchError);
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ kind: "too_large" });
    }
    expect(requests).toHaveLength(100);
    expect(await settledSockets()).toBe(0);
    expect((await guardedFetch(`${origin}/hello`)).body.toString()).toBe("hello");
  });
});

describe("a consumer that stops reading early", () => {
  it.each(["/endless-garbage.xml", "/endless-garbage.xml.gz"])("%s: the XML reader fails, and the socket is closed", async (path) => {
    await expect(fetchXmlSource(`${origin}${path}`, smallLimits)).rejects.toThrow(/not valid XML|not a sitemap/);
    expect(await settledSockets()).toBe(0);
  });

  it("destroys the body after one chunk: the socket is closed", async () => {
    const response = await guardedRequest(`${origin}/endless.xml`);
    for await (const chunk of response.body) {
      expect(chunk.length).toBeGreaterThan(0);
      break; // destroys the body
    }
    expect(await settledSockets()).toBe(0);
  });
});

describe("the total timeout", () => {
  it("closes the socket of a body that stalls midway", async () => {
    await expect(fetchXmlSource(`${origin}/stall.xml`, { maxBytes: CAP, timeoutMs: 300 })).rejects.toMatchObject({ kind: "timeout" });
    expect(await settledSockets()).toBe(0);
  });

  it("closes the socket of a body nobody reads", async () => {
    const response = await guardedRequest(`${origin}/endless.xml`, { timeoutMs: 300 });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await settledSockets()).toBe(0);
    await expect(readAll(response.body)).rejects.toMatchObject({ kind: "timeout" });
  });
});

describe("an HTTP error status", () => {
  it("closes the socket of an error page it does not read", async () => {
    await expect(fetchXmlSource(`${origin}/missing-endless.xml`, smallLimits)).rejects.toThrow(/answered HTTP 404/);
    expect(await settledSockets()).toBe(0);
  });
});

describe("a redirect", () => {
  it("reads a small redirect body to its end: its connection goes back to the pool and is reused", async () => {
    for (let i = 0; i < 5; i++) expect((await guardedFetch(`${origin}/redirect-small`)).body.toString()).toBe("hello");
    expect(requests).toHaveLength(10);
    // Ten responses on at most two connections: none was left unread (an unread one is never reused).
    expect(sockets.length).toBeLessThanOrEqual(2);
  });

  it("closes the connection of an endless redirect body instead of reading it", async () => {
    expect((await guardedFetch(`${origin}/redirect-endless`)).body.toString()).toBe("hello");
    expect(requests).toEqual(["/redirect-endless", "/hello"]);
    await expect.poll(() => sockets[0]!.closed, { timeout: 2_000 }).toBe(true);
    // At most the keep-alive connection of /hello remains.
    await expect.poll(openSockets, { timeout: 2_000 }).toBeLessThanOrEqual(1);
  });

  it.each(["/redirect-bad-host", "/redirect-javascript"])("%s: a Location that is no http(s) URL fails at once, for good", async (path) => {
    const failures = [await guardedFetch(`${origin}${path}`).catch((e: unknown) => e), await guardedCount(`${origin}${path}`).catch((e: unknown) => e)];
    for (const error of failures) {
      expect(error).toBeInstanceOf(FetchError);
      expect(error).toMatchObject({ kind: "invalid_url" });
      expect(isTransient(error)).toBe(false);
    }
    expect(requests).toEqual([path, path]);
  });
});

describe("gunzipIfCompressed", () => {
  const stream = (...chunks: Buffer[]) => Readable.from(chunks, { objectMode: false });

  it("recognises gzip whose magic bytes arrive one at a time", async () => {
    const gzip = zlib.gzipSync("<urlset/>");
    const body = await gunzipIfCompressed(stream(gzip.subarray(0, 1), gzip.subarray(1, 2), gzip.subarray(2)), CAP, "http://shop.test/a.xml.gz");
    expect(await readAll(body)).toBe("<urlset/>");
  });

  it.each([[""], ["x"], ["<urlset/>"]])("passes %j on as it is", async (text) => {
    expect(await readAll(await gunzipIfCompressed(stream(Buffer.from(text)), CAP, "http://shop.test/a.xml"))).toBe(text);
  });

  it.each([
    ["plain", Buffer.from(URLSET_HEAD)],
    ["gzip", zlib.gzipSync(URLSET_HEAD)],
  ])("destroys the body it was given when its own stream is destroyed (%s)", async (_kind, head) => {
    const body = Readable.from(forever(head, "more"), { objectMode: false });
    const read = await gunzipIfCompressed(body, CAP, "http://shop.test/a.xml");
    read.destroy();
    await expect.poll(() => body.destroyed).toBe(true);
  });
});
