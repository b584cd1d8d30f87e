import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The benches' local origin, in a process of its own (one core for it, one for the client under
 * test): every GET answers 200 with a 4 KiB page and Cloudflare-style headers (a cache HIT served
 * by CDG), so cache and PoP reading run as against a real CDN. It tells its parent its port, and
 * on request how many pages it served.
 */
const page = Buffer.from(`<!doctype html><html><head><title>bench</title></head><body>${"<p>warm</p>".repeat(360)}</body></html>`).subarray(0, 4096);
let served = 0;
const server = http.createServer((_req, res) => {
  served++;
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "content-length": page.length,
    "cache-control": "public, max-age=3600",
    "cf-cache-status": "HIT",
    "cf-ray": "8f1b2c3d4e5f6a7b-CDG",
    age: "120",
  });
  res.end(page);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on("message", (message: { type: string }) => {
  if (message.type === "count") process.send?.({ served });
});
process.on("disconnect", () => process.exit(0));
