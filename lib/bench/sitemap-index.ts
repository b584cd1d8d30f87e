import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createApiKey } from "@/lib/auth/api-keys";
import { closeDatabase, getDatabaseHandle } from "@/lib/db";
import { processSitemap } from "@/lib/sitemaps/process";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite } from "@/lib/sites/service";
import { percentile } from "./percentile";

/**
 * A sitemap index of 20 gzipped children × 50,000 URLs (1,000,000 URLs, within the protocol's
 * limits) stored by `processSitemap` in the process that also answers the API, on the PostgreSQL
 * server of DATABASE_URL or else the embedded database (on disk). Twice, side by side: children
 * one at a time (the reference), then PREHEAT_SITEMAP_CHILDREN_AT_ONCE at a time (default 4).
 * Meanwhile `GET /v1/me` (its route handler, with a real key) is called every 25 ms; its latency is
 * compared with the same calls on the idle database. Targets: stored in under 20 s, peak RSS of
 * this process under 300 MB (a PostgreSQL server's memory is its own process's).
 */
const CHILDREN = Number(process.env.BENCH_CHILDREN ?? 20);
const PER_CHILD = 50_000;
const ME_INTERVAL_MS = 25;
const TARGET_SECONDS = 20;
const TARGET_RSS_BYTES = 300 * 1000 * 1000;

function child(index: number): Buffer {
  const entries = Array.from({ length: PER_CHILD }, (_, i) => `<url><loc>https://index.test/c${index}/products/item-${i}?v=2</loc><lastmod>2026-11-01</lastmod></url>`).join("\n");
  return gzipSync(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`);
}

const describeLatencies = (values: number[]) => `n=${values.length} p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;

type Ingestion = { seconds: number; peakRss: number; rssBefore: number; message: string; status: string; latencies: number[] };

async function main() {
  const children = Array.from({ length: CHILDREN }, (_, i) => child(i));
  const index = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children.map((_, i) => `<sitemap><loc>http://index.test/sitemap-${i}.xml.gz</loc></sitemap>`).join("")}</sitemapindex>`;
  const server = http.createServer((req, res) => {
    const match = /^\/sitemap-(\d+)\.xml\.gz$/.exec(req.url ?? "");
    if (match) res.writeHead(200, { "content-type": "application/gzip" }).end(children[Number(match[1])]);
    else res.writeHead(200, { "content-type": "application/xml" }).end(index);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-bench-index-"));
  process.env.PREHEAT_DATA_DIR = dataDir;
  // A call every 25 ms is 2,400 a minute: past the API's default budget, which is not what is measured.
  process.env.PREHEAT_RATE_LIMIT_PER_MINUTE = "1000000000";
  process.env.PREHEAT_CONNECT_TO = `index.test:443:127.0.0.1:${(server.address() as AddressInfo).port},index.test:80:127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const handle = await getDatabaseHandle();
    const { db } = handle;
    const { user } = await findOrCreateUser(db, "bench@example.com");
    const ctx = { db, accountId: user.accountId };
    const { key } = await createApiKey(db, { accountId: user.accountId, name: "bench", scopes: ["sites:read"] });
    const { GET: me } = await import("@/app/api/v1/me/route");
    const callMe = async () => {
      const started = performance.now();
      const response = await me(new Request("http://localhost/v1/me", { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({}) });
      if (response.status !== 200) throw new Error(`GET /v1/me answered ${response.status}`);
      await response.text();
      return performance.now() - started;
    };
    // Reference: the same calls on the idle database.
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) {
      idle.push(await callMe());
      await new Promise((resolve) => setTimeout(resolve, 5));
    }

    const site = await createSite(ctx, { domain: "index.test" });
    const ingest = async (atOnce: number, path: string): Promise<Ingestion> => {
      process.env.PREHEAT_SITEMAP_CHILDREN_AT_ONCE = String(atOnce);
      const sitemap = await addSitemap(ctx, site.id, { url: `http://index.test/${path}` });
      const latencies: number[] = [];
      let ingesting = true;
      const prober = (async () => {
        while (ingesting) {
          const sent = performance.now();
          latencies.push(await callMe());
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, ME_INTERVAL_MS - (performance.now() - sent))));
        }
      })();
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let peakRss = rssBefore;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
      const started = performance.now();
      const outcome = await processSitemap(db, sitemap.id);
      const seconds = (performance.now() - started) / 1000;
      ingesting = false;
      await prober;
      clearInterval(sampler);
      return { seconds, peakRss, rssBefore, message: outcome.message, status: outcome.status, latencies };
    };
    const where = handle.kind === "postgres" ? "a PostgreSQL server" : "the embedded database";
    const reference = await ingest(1, "sitemap_index.xml?reference");
    const parallel = await ingest(Number(process.env.BENCH_CHILDREN_AT_ONCE ?? 4), "sitemap_index.xml");
    const rate = (run: Ingestion) => `${Math.round((CHILDREN * PER_CHILD) / run.seconds).toLocaleString("en")} URLs/s`;
    console.log(`index of ${CHILDREN} gzipped children × ${PER_CHILD.toLocaleString("en")} URLs on ${where}:`);
    console.log(`  children one at a time (reference): ${reference.status} in ${reference.seconds.toFixed(1)} s (${rate(reference)}), peak RSS ${mib(reference.peakRss)}`);
    console.log(
      `  children ${process.env.PREHEAT_SITEMAP_CHILDREN_AT_ONCE} at a time:           ${parallel.status} in ${parallel.seconds.toFixed(1)} s (${rate(parallel)}), peak RSS ${mib(parallel.peakRss)} (${mib(parallel.rssBefore)} before): ${parallel.message}`,
    );
    console.log(
      `  time ratio ${(parallel.seconds / reference.seconds).toFixed(2)} of the reference; target < ${TARGET_SECONDS} s: ${parallel.seconds < TARGET_SECONDS ? "met" : "NOT met"}; peak RSS < 300 MB: ${parallel.peakRss < TARGET_RSS_BYTES ? "met" : "NOT met"}`,
    );
    console.log(`GET /v1/me idle (reference):      ${describeLatencies(idle)}`);
    console.log(`GET /v1/me during ingestion:      ${describeLatencies(parallel.latencies)}`);
    console.log(
      `p99 during / p99 idle: ratio ${(percentile(parallel.latencies, 99) / percentile(idle, 99)).toFixed(2)}; target p99 ≤ 250 ms: ${percentile(parallel.latencies, 99) <= 250 ? "met" : "NOT met"}`,
    );
  } finally {
    server.close();
    await closeDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
