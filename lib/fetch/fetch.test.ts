import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { blockedReason } from "./address-guard";
import { closeOutboundAgent } from "./agent";
import { guardedFetch } from "./index";

let server: http.Server;
let origin: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const hops = Number(url.searchParams.get("hops") ?? 0);
    if (url.pathname === "/redirect") {
      res.writeHead(302, { location: hops > 1 ? `/redirect?hops=${hops - 1}` : "/hello" }).end();
    } else if (url.pathname === "/to-private") {
      res.writeHead(301, { location: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hello` }).end();
    } else if (url.pathname === "/hello") {
      res.end(`hello from ${req.headers.host}`);
    } else if (url.pathname === "/big") {
      res.end(Buffer.alloc(2 * 1024 * 1024, 97));
    } else if (url.pathname === "/bomb") {
      res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(Buffer.alloc(64 * 1024 * 1024)));
    } else if (url.pathname === "/gzip") {
      res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync("compressed hello"));
    } else if (url.pathname === "/slow") {
      setTimeout(() => res.end("late"), 2_000);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(async () => {
  delete process.env.PREHEAT_ALLOW_PRIVATE_NETWORK;
  delete process.env.PREHEAT_CONNECT_TO;
  // Pooled connections were checked when opened: start each test with none.
  await closeOutboundAgent();
});

const allowLoopback = () => (process.env.PREHEAT_ALLOW_PRIVATE_NETWORK = "true");

describe("the address guard", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
  ])("refuses %s", (address) => {
    expect(blockedReason(address)).toBeDefined();
  });

  it.each(["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "::ffff:93.184.215.14"])("lets %s through", (address) => {
    expect(blockedReason(address)).toBeUndefined();
  });

  it("refuses a loopback origin unless private networks are allowed", async () => {
    await expect(guardedFetch(`${origin}/hello`)).rejects.toMatchObject({ kind: "blocked_address" });
    allowLoopback();
    expect((await guardedFetch(`${origin}/hello`)).status).toBe(200);
  });

  it("trusts the address PREHEAT_CONNECT_TO names, but not a redirect to a private address", async () => {
    process.env.PREHEAT_CONNECT_TO = `shop.test:80:127.0.0.1:${new URL(origin).port}`;
    expect((await guardedFetch("http://shop.test/hello")).status).toBe(200);
    await expect(guardedFetch("http://shop.test/to-private")).rejects.toMatchObject({ kind: "blocked_address" });
  });
});

describe("guardedFetch", () => {
  it("connects as PREHEAT_CONNECT_TO says, keeping the Host header", async () => {
    allowLoopback();
    process.env.PREHEAT_CONNECT_TO = `shop.test:80:127.0.0.1:${new URL(origin).port}`;
    const response = await guardedFetch("http://shop.test/hello");
    expect(response.body.toString()).toBe("hello from shop.test");
  });

  it("follows up to 5 redirects and refuses the 6th", async () => {
    allowLoopback();
    const five = await guardedFetch(`${origin}/redirect?hops=5`);
    expect(five).toMatchObject({ status: 200, redirects: 5 });
    await expect(guardedFetch(`${origin}/redirect?hops=6`)).rejects.toMatchObject({ kind: "too_many_redirects" });
  });

  it("decodes gzip", async () => {
    allowLoopback();
    expect((await guardedFetch(`${origin}/gzip`)).body.toString()).toBe("compressed hello");
  });

  it("cuts off a body over the cap, and a gzip bomb after decompression", async () => {
    allowLoopback();
    await expect(guardedFetch(`${origin}/big`, { maxBytes: 1024 * 1024 })).rejects.toMatchObject({ kind: "too_large" });
    await expect(guardedFetch(`${origin}/bomb`, { maxBytes: 1024 * 1024 })).rejects.toMatchObject({ kind: "too_large" });
  });

  it("gives up after the timeout", async () => {
    allowLoopback();
    await expect(guardedFetch(`${origin}/slow`, { timeoutMs: 300 })).rejects.toMatchObject({ kind: "timeout" });
  });

  it("refuses other schemes", async () => {
    await expect(guardedFetch("file:///etc/passwd")).rejects.toMatchObject({ kind: "invalid_url" });
  });
});
