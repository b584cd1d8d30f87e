import http from "node:http";
import type { AddressInfo } from "node:net";
import { percentile, roundedMean } from "./percentile";

/**
 * The multisite bench's origin, in a process of its own: every GET answers 200 after a fixed
 * delay (BENCH_DELAY_MS), as a real site's 100–500 ms would, with a small Cloudflare-style page.
 * It counts calls in flight, overall and per site (the Host header), and reports the peaks. A
 * site's ownership token file (`/<token>.html`, the tokens sent by the bench) answers at once and
 * is not counted; any other `/preheat-….html` is a 404, as on a real site.
 *
 * It notes each site's first call (for the bench's wait from a warm accepted to its first call), and
 * measures the turnaround: how long a site's slot, freed by an answer, stays empty until
 * the site's next call arrives. The origin's delay is fixed, so every millisecond a run takes past
 * its ideal is there (the warmer's latency, not the site's).
 */
const delayMs = Number(process.env.BENCH_DELAY_MS ?? 200);
const page = Buffer.from("<!doctype html><html><body>warm</body></html>");
let inFlight = 0;
let peak = 0;
let served = 0;
const perSite = new Map<string, number>();
let peakPerSite = 0;
let firstAt = 0;
let lastAt = 0;
/** By host: the ownership token its token file holds. */
const tokens = new Map<string, string>();
/** By host: when each answer not yet followed by a call was sent (performance.now() ms). */
const freedAt = new Map<string, number[]>();
const turnarounds: number[] = [];
/** By host: when its first warming call arrived (epoch ms), so that the bench can tell how long after its warm was accepted. */
const firstCallAt = new Map<string, number>();

const server = http.createServer((req, res) => {
  const host = req.headers.host ?? "";
  if (req.url?.startsWith("/preheat-")) {
    const token = tokens.get(host);
    if (token && req.url === `/${token}.html`) return void res.writeHead(200, { "content-type": "text/html" }).end(token);
    return void res.writeHead(404).end();
  }
  firstAt ||= performance.now();
  if (!firstCallAt.has(host)) firstCallAt.set(host, performance.timeOrigin + performance.now());
  const freed = freedAt.get(host)?.shift();
  if (freed !== undefined) turnarounds.push(performance.now() - freed);
  inFlight++;
  peak = Math.max(peak, inFlight);
  const open = (perSite.get(host) ?? 0) + 1;
  perSite.set(host, open);
  peakPerSite = Math.max(peakPerSite, open);
  setTimeout(() => {
    inFlight--;
    perSite.set(host, perSite.get(host)! - 1);
    served++;
    lastAt = performance.now();
    const waiting = freedAt.get(host);
    if (waiting) waiting.push(lastAt);
    else freedAt.set(host, [lastAt]);
    res.writeHead(200, { "content-type": "text/html", "content-length": page.length, "cf-cache-status": "HIT", "cf-ray": "8f1b2c3d4e5f6a7b-CDG" }).end(page);
  }, delayMs);
});
server.keepAliveTimeout = 60_000;
server.maxConnections = 100_000;
server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on("message", (message: { type: string; tokens?: Record<string, string> }) => {
  if (message.type === "stats") process.send?.({ served, peak, peakPerSite, spanMs: lastAt - firstAt, inFlight, lastAt: performance.timeOrigin + lastAt, turnaround: turnaroundFigures() });
  if (message.type === "first-calls") process.send?.({ firstCalls: Object.fromEntries(firstCallAt) });
  if (message.type === "tokens") for (const [host, token] of Object.entries(message.tokens ?? {})) tokens.set(host, token);
});
process.on("disconnect", () => process.exit(0));

/** The turnaround's mean and percentiles in ms (null before any). */
function turnaroundFigures() {
  if (!turnarounds.length) return null;
  const at = (p: number) => Math.round(percentile(turnarounds, p));
  return { mean: roundedMean(turnarounds), p50: at(50), p90: at(90), p99: at(99) };
}
