import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createApiKey } from "@/lib/auth/api-keys";
import { SCOPES } from "@/lib/auth/scopes";
import { openDatabase } from "@/lib/db";
import { freePort } from "@/lib/testing/ports";
import { startProductionServer } from "@/lib/testing/production-server";
import { percentile } from "./percentile";
import { apiCall, probeLatency } from "./through-the-api";

/**
 * The API beside big work, as people run it (issue 28, item 5): `GET /v1/me` through the production
 * server (`next start`, embedded worker, PGlite on disk), a fresh connection every 200 ms, first on
 * the idle server (the reference), then while the server ingests a sitemap index of BENCH_CHILDREN
 * (10) gzipped children × 50,000 URLs added through `/v1`. The origin runs in this process and serves
 * the site's ownership token, the index and its children. Target: p99 ≤ 100 ms during the ingestion.
 */
const CHILDREN = Number(process.env.BENCH_CHILDREN ?? 10);
const PER_CHILD = 50_000;
const PROBE_EVERY_MS = 200;
const IDLE_SECONDS = 6;
const HOST = "ingest.bench.test";

function childSitemap(index: number): Buffer {
  const entries = Array.from({ length: PER_CHILD }, (_, i) => `<url><loc>http://${HOST}/c${index}/products/item-${i}</loc><lastmod>2026-11-01</lastmod></url>`).join("\n");
  return gzipSync(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`);
}

async function startOrigin(token: () => string | undefined) {
  const children = Array.from({ length: CHILDREN }, (_, i) => childSitemap(i));
  const index = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${children.map((_, i) => `<sitemap><loc>http://${HOST}/c${i}.xml.gz</loc></sitemap>`).join("\n")}\n</sitemapindex>\n`;
  const server = http.createServer((req, res) => {
    const child = /^\/c(\d+)\.xml\.gz$/.exec(req.url ?? "");
    if (req.url === "/sitemap_index.xml") return void res.writeHead(200, { "content-type": "application/xml" }).end(index);
    if (child && children[Number(child[1])]) return void res.writeHead(200, { "content-type": "application/gzip" }).end(children[Number(child[1])]);
    if (token() && req.url === `/${token()}.html`) return void res.writeHead(200, { "content-type": "text/html" }).end(token());
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

const line = (label: string, times: number[]) =>
  `${label}: ${times.length} requests, p50 ${Math.round(percentile(times, 50))} ms, p99 ${Math.round(percentile(times, 99))} ms, max ${Math.round(percentile(times, 100))} ms`;

async function main() {
  let token: string | undefined;
  const origin = await startOrigin(() => token);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "preheat-bench-ingest-"));
  const seeded = await openDatabase({ dataDir });
  const { user } = await findOrCreateUser(seeded.db, "ingest@bench.test");
  const { key } = await createApiKey(seeded.db, { accountId: user.accountId, name: "bench", scopes: [...SCOPES] });
  await seeded.close();
  const server = await startProductionServer(await freePort(), {
    PREHEAT_DATA_DIR: dataDir,
    PREHEAT_CONNECT_TO: `:80:127.0.0.1:${origin.port},:443:127.0.0.1:${origin.port}`,
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
  });
  try {
    console.log(`machine: ${os.cpus().length} cores, Node ${process.version}; the production server (npm start: embedded worker, PGlite on disk); through /v1`);
    const site = await apiCall(server.baseUrl, key, "POST", "/v1/sites", { domain: HOST });
    token = site.validation_token;
    await apiCall(server.baseUrl, key, "POST", `/v1/sites/${site.id}/validate`);
    const me = `${server.baseUrl}/v1/me`;

    const idle = probeLatency(me, key, PROBE_EVERY_MS);
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const idleTimes = await idle.stop();

    const started = performance.now();
    const during = probeLatency(me, key, PROBE_EVERY_MS);
    const sitemap = await apiCall(server.baseUrl, key, "POST", `/v1/sites/${site.id}/sitemaps`, { url: `http://${HOST}/sitemap_index.xml` });
    let state = sitemap;
    while (!["done", "error"].includes(state.status)) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      state = (await apiCall(server.baseUrl, key, "GET", `/v1/sites/${site.id}/sitemaps`)).data.find((s: { id: number }) => s.id === sitemap.id);
    }
    const seconds = (performance.now() - started) / 1000;
    const duringTimes = await during.stop();
    console.log(`${CHILDREN} gzipped children × ${PER_CHILD.toLocaleString("en")} URLs added through /v1: ${state.status} in ${seconds.toFixed(1)} s (${state.status_message})`);
    console.log(line(`GET /v1/me, idle (a fresh connection every ${PROBE_EVERY_MS} ms)`, idleTimes));
    console.log(line("GET /v1/me during the ingestion", duringTimes));
  } finally {
    await server.stop();
    origin.close();
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
