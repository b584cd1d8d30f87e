import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { LOG_MAX_KEYS, readAccessLog } from "@/lib/traffic/logs";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const MB = 1024 * 1024;
/**
 * What a read may add to the process, whatever the log's size. The peak RSS holds the garbage the
 * collector has not reclaimed yet, which V8 lets grow further on Node 24 than on Node 20 (about
 * 180 MiB there, 340 MiB here for this log); what the read keeps, measured after a collection, is
 * the visits of at most LOG_MAX_KEYS keys: about 20 MiB.
 */
const RSS_BOUND = 512 * MB;
const RETAINED_BOUND = 96 * MB;

/** The collector, to measure what is kept rather than what is not collected yet. */
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

describe("readAccessLog on a large log", () => {
  it("streams 200 MB of combined lines, more distinct pages than it keeps, within a fixed memory bound", async () => {
    const size = 200 * MB;
    gc();
    const baseline = process.memoryUsage().rss;
    const heapBaseline = process.memoryUsage().heapUsed;
    let peak = 0;
    let sent = 0;
    let lines = 0;
    // Generated as it is read, never whole: 30 days of a site with 400,000 pages, each day in order,
    // a popular page every tenth line.
    async function* log() {
      while (sent < size) {
        const parts: string[] = [];
        for (let k = 0; k < 1000; k++, lines++) {
          const day = String(1 + (Math.floor((lines / 1_000_000) * 30) % 30)).padStart(2, "0");
          const page = lines % 10 === 0 ? "/popular/" : `/products/item-${(lines * 7919) % 400_000}/`;
          parts.push(`203.0.113.${lines % 250} - - [${day}/Apr/2024:12:${String(lines % 60).padStart(2, "0")}:00 +0000] "GET ${page}?utm_source=mail HTTP/1.1" 200 5120 "-" "${CHROME}"\n`);
        }
        const chunk = Buffer.from(parts.join(""));
        sent += chunk.length;
        peak = Math.max(peak, process.memoryUsage().rss - baseline);
        yield chunk;
      }
    }
    const started = performance.now();
    const result = await readAccessLog(log(), { domain: "shop.example.com", keepsQuery: () => false });
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss - baseline);
    gc();
    const retained = process.memoryUsage().heapUsed - heapBaseline;
    console.info(`access log: ${(sent / 1e6 / seconds).toFixed(0)} MB/s, ${result.counts.lines} lines, peak RSS growth ${(peak / MB).toFixed(0)} MiB, retained ${(retained / MB).toFixed(0)} MiB`);
    expect(result.counts).toMatchObject({ lines, counted: lines, broken: 0, truncated: true });
    let keys = 0;
    for (const paths of result.visits.values()) keys += paths.size;
    expect(keys).toBeLessThanOrEqual(LOG_MAX_KEYS);
    // The popular page is never dropped, whatever was evicted around it.
    let popular = 0;
    for (const paths of result.visits.values()) popular += paths.get("/popular/") ?? 0;
    expect(popular).toBe(Math.ceil(lines / 10));
    expect(peak).toBeLessThan(RSS_BOUND);
    expect(retained).toBeLessThan(RETAINED_BOUND);
  }, 60_000);
});
