import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { blockedReason } from "./address-guard";
import { closeOutboundAgent } from "./agent";
import { startConnectProxy } from "@/lib/testing/connect-proxy";
import { checkProxiedTarget } from "./proxy";
import { FetchError, guardedCount, guardedFetch, guardedRequest } from "./index";

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
    } else if (url.pathname === "/to-loopback") {
      res.writeHead(302, { location: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hello` }).end();
    } else if (url.pathname === "/hello") {
      res.end(`hello from ${req.headers.host}`);
    } else if (url.pathname === "/to-other-host") {
      res.writeHead(302, { location: `http://other.test:${(server.address() as AddressInfo).port}/credentials` }).end();
    } else if (url.pathname === "/to-same-host") {
      res.writeHead(302, { location: "/credentials" }).end();
    } else if (url.pathname === "/credentials") {
      res.end(`${req.headers.host} ${req.headers.authorization ?? "-"} ${req.headers.cookie ?? "-"} ${req.headers["x-kept"] ?? "-"}`);
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
  // At least one address of every range that is not a public Internet address, with the range named.
  it.each([
    ["0.0.0.0", "0.0.0.0/8"],
    ["0.1.2.3", "0.0.0.0/8"],
    ["10.1.2.3", "10.0.0.0/8"],
    ["100.64.0.1", "100.64.0.0/10"],
    ["100.127.255.254", "100.64.0.0/10"],
    ["127.0.0.1", "127.0.0.0/8"],
    ["127.255.255.254", "127.0.0.0/8"],
    ["169.254.169.254", "169.254.0.0/16"],
    ["172.16.0.1", "172.16.0.0/12"],
    ["172.31.255.255", "172.16.0.0/12"],
    ["192.0.0.1", "192.0.0.0/24"],
    ["192.0.2.1", "192.0.2.0/24"],
    ["192.88.99.1", "192.88.99.0/24"],
    ["192.168.1.1", "192.168.0.0/16"],
    ["198.18.0.1", "198.18.0.0/15"],
    ["198.19.255.255", "198.18.0.0/15"],
    ["198.51.100.7", "198.51.100.0/24"],
    ["203.0.113.9", "203.0.113.0/24"],
    ["224.0.0.1", "224.0.0.0/4"],
    ["239.255.255.250", "224.0.0.0/4"],
    ["240.0.0.1", "240.0.0.0/4"],
    ["255.255.255.255", "255.255.255.255/32"],
    ["::", "::/128"],
    ["::1", "::1/128"],
    // IPv4-mapped: judged as the IPv4 address it is.
    ["::ffff:127.0.0.1", "127.0.0.0/8"],
    ["::ffff:10.0.0.1", "10.0.0.0/8"],
    ["::ffff:169.254.169.254", "169.254.0.0/16"],
    // IPv4-compatible (deprecated), refused whole: ::7f00:1 is 127.0.0.1.
    ["::7f00:1", "::/96"],
    ["::808:808", "::/96"],
    // NAT64, refused whole, a public embedded IPv4 address included.
    ["64:ff9b::7f00:1", "64:ff9b::/96"],
    ["64:ff9b::808:808", "64:ff9b::/96"],
    ["64:ff9b:1::1", "64:ff9b:1::/48"],
    ["100::1", "100::/64"],
    ["2001::1", "2001::/32"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001::/32"],
    ["2001:2::1", "2001::/23"],
    ["2001:db8::1", "2001:db8::/32"],
    // 6to4, refused whole: 2002:7f00:1:: embeds 127.0.0.1, and a public embedded address is relayed too.
    ["2002:7f00:1::", "2002::/16"],
    ["2002:a00:1::1", "2002::/16"],
    ["2002:808:808::", "2002::/16"],
    ["3fff::1", "3fff::/20"],
    ["5f00::1", "5f00::/16"],
    ["fc00::1", "fc00::/7"],
    ["fd12:3456::1", "fc00::/7"],
    ["fe80::1", "fe80::/10"],
    ["fe80::1%eth0", "fe80::/10"],
    ["ff02::1", "ff00::/8"],
    ["fec0::1", "2000::/3"],
    ["4000::1", "2000::/3"],
    ["127.1", "not an IP address"],
    ["0x7f000001", "not an IP address"],
    ["shop.test", "not an IP address"],
  ])("refuses %s (%s)", (address, range) => {
    expect(blockedReason(address)).toContain(range);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "198.20.0.0",
    "223.255.255.255",
    "::ffff:8.8.8.8",
    "2606:4700:4700::1111",
    "2a00:1450:4001::1",
    "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
    "2001:200::1",
  ])("lets %s through", (address) => {
    expect(blockedReason(address)).toBeUndefined();
  });

  it.each(["[::7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]", "[::ffff:7f00:1]", "[::1]"])("refuses %s as a URL host, naming it", async (host) => {
    const port = new URL(origin).port;
    const error = await guardedFetch(`http://${host}:${port}/hello`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect(error).toMatchObject({ kind: "blocked_address" });
    expect((error as Error).message).toContain(host.slice(1, -1));
  });

  it("names the host a refused name resolves for, never the address it resolves to", async () => {
    const port = new URL(origin).port;
    for (const refuse of [() => guardedFetch(`http://localhost:${port}/hello`), () => guardedCount(`http://localhost:${port}/hello`)]) {
      const error = await refuse().catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: "blocked_address" });
      expect((error as Error).message).toBe("refused to connect: localhost resolves to an address that is not a public Internet address");
    }
  });

  it("checks a proxied target the same way: IPv6 literals, and names without their addresses", async () => {
    await expect(checkProxiedTarget(new URL("http://[::7f00:1]/"))).rejects.toMatchObject({ kind: "blocked_address" });
    await expect(checkProxiedTarget(new URL("http://localhost/"))).rejects.toThrow("refused to connect: localhost resolves to an address that is not a public Internet address");
    await expect(checkProxiedTarget(new URL("http://[2606:4700:4700::1111]/"))).resolves.toBeUndefined();
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

  it("sends credentials (Authorization, Cookie) after a redirect on the same host only, and the other headers everywhere", async () => {
    allowLoopback();
    const port = new URL(origin).port;
    process.env.PREHEAT_CONNECT_TO = `shop.test:${port}:127.0.0.1:${port},other.test:${port}:127.0.0.1:${port}`;
    const headers = { authorization: "Basic c3RhZ2U6c2VjcmV0", cookie: "currency=USD", "x-kept": "1" };
    const same = await guardedFetch(`http://shop.test:${port}/to-same-host`, { headers });
    expect(same.body.toString()).toBe(`shop.test:${port} Basic c3RhZ2U6c2VjcmV0 currency=USD 1`);
    const other = await guardedFetch(`http://shop.test:${port}/to-other-host`, { headers });
    expect(other.body.toString()).toBe(`other.test:${port} - - 1`);
  });

  it("holds the headers named host-only back from another host too, as it does credentials", async () => {
    allowLoopback();
    const port = new URL(origin).port;
    process.env.PREHEAT_CONNECT_TO = `shop.test:${port}:127.0.0.1:${port},other.test:${port}:127.0.0.1:${port}`;
    const options = { headers: { cookie: "currency=USD", "x-kept": "1" }, hostOnlyHeaders: ["x-kept"] };
    const same = await guardedCount(`http://shop.test:${port}/to-same-host`, { ...options, keepBody: () => 200 });
    expect(same.body?.toString()).toBe(`shop.test:${port} - currency=USD 1`);
    const other = await guardedCount(`http://shop.test:${port}/to-other-host`, { ...options, keepBody: () => 200 });
    expect(other.body?.toString()).toBe(`other.test:${port} - - -`);
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

describe("through a proxy (a region's egress)", () => {
  const startProxy = () => startConnectProxy(Number(new URL(origin).port));

  const entryPoints: Array<[string, (url: string, proxy: string) => Promise<unknown>]> = [
    ["guardedCount (warming calls)", (url, proxy) => guardedCount(url, { proxy })],
    ["guardedRequest (documents)", (url, proxy) => guardedRequest(url, { proxy }).then((r) => r.body.destroy())],
    ["guardedFetch (small documents)", (url, proxy) => guardedFetch(url, { proxy })],
  ];

  it.each(entryPoints)("%s: a redirect to a loopback address is refused before the proxy is asked to go there", async (_name, request) => {
    // shop.test is the operator's (PREHEAT_CONNECT_TO): the first hop may go; the redirect's target is judged on its own.
    process.env.PREHEAT_CONNECT_TO = `shop.test:80:127.0.0.1:${new URL(origin).port}`;
    const proxy = await startProxy();
    try {
      const error = await request("http://shop.test/to-loopback", proxy.uri).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FetchError);
      expect(error).toMatchObject({ kind: "blocked_address", message: expect.stringMatching(/^refused to connect: 127\.0\.0\.1 is in the loopback range/) });
      expect(proxy.tunnels).toEqual(["shop.test:80"]);
      // A target that is a loopback address from the start is refused too, the proxy never asked.
      await expect(request(`${origin}/hello`, proxy.uri)).rejects.toMatchObject({ kind: "blocked_address" });
      expect(proxy.tunnels).toEqual(["shop.test:80"]);
    } finally {
      await proxy.stop();
    }
  });

  it("follows a redirect to an allowed host through the proxy, every hop through it", async () => {
    process.env.PREHEAT_CONNECT_TO = `shop.test:80:127.0.0.1:${new URL(origin).port}`;
    const proxy = await startProxy();
    try {
      const response = await guardedFetch("http://shop.test/redirect?hops=2", { proxy: proxy.uri });
      expect(response).toMatchObject({ status: 200, redirects: 2 });
      expect(response.body.toString()).toBe("hello from shop.test");
      expect(proxy.tunnels.length).toBeGreaterThanOrEqual(1);
      expect(proxy.tunnels.every((t) => t === "shop.test:80")).toBe(true);
    } finally {
      await proxy.stop();
    }
  });
});

describe("PreheatBot", () => {
  it("names itself on document requests, while warming calls send the caller's user agent", async () => {
    allowLoopback();
    process.env.PREHEAT_BASE_URL = "https://preheat.example";
    const seen: string[] = [];
    const echo = http.createServer((req, res) => res.end(String(seen.push(req.headers["user-agent"] ?? ""))));
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    try {
      const at = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/`;
      await guardedFetch(at);
      await guardedCount(at, { headers: { "user-agent": "Mozilla/5.0 (test)" } });
      expect(seen[0]).toMatch(/^PreheatBot\/\d+\.\d+\.\d+ \(\+https:\/\/preheat\.example\/bot\)$/);
      expect(seen[1]).toBe("Mozilla/5.0 (test)");
    } finally {
      delete process.env.PREHEAT_BASE_URL;
      echo.closeAllConnections();
      await new Promise((resolve) => echo.close(resolve));
    }
  });
});

describe("guardedCount's kept body", () => {
  it("keeps the start of the bodies asked for, as sent, and counts every byte as before", async () => {
    allowLoopback();
    const page = "x".repeat(50_000);
    const server = http.createServer((req, res) => res.writeHead(req.url === "/challenge" ? 403 : 200).end(page));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const keepBody = (status: number) => (status === 403 ? 1024 : 0);
      const refused = await guardedCount(`${at}/challenge`, { keepBody });
      expect(refused).toMatchObject({ status: 403, bytes: 50_000 });
      expect(refused.body?.toString()).toBe("x".repeat(1024));
      const ok = await guardedCount(`${at}/page`, { keepBody });
      expect(ok).toMatchObject({ status: 200, bytes: 50_000, body: null });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
