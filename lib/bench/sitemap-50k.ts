import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { fetchXmlSource } from "@/lib/sources";

/**
 * Reads a 50,000-URL sitemap (the protocol's maximum) from a local origin, plain and gzipped, and
 * reports time and the heap it took beyond the parsed entries: the document is streamed, so the
 * growth must stay well under one copy of the document.
 */
const URLS = 50_000;
const body = Buffer.from(
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n` +
    Array.from(
      { length: URLS },
      (_, i) =>
        `<url><loc>https://bench.test/products/category-${i % 97}/item-${i}?ref=sitemap&amp;v=2</loc><lastmod>2026-11-${String((i % 28) + 1).padStart(2, "0")}</lastmod><image:image><image:loc>https://bench.test/img/${i}.jpg</image:loc></image:image></url>`,
    ).join("\n") +
    "\n</urlset>\n",
);
const gzipped = gzipSync(body);

async function main() {
  const server = http.createServer((req, res) => {
    if (req.url === "/sitemap.xml.gz") res.writeHead(200, { "content-type": "application/gzip" }).end(gzipped);
    else res.writeHead(200, { "content-type": "application/xml" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.PREHEAT_CONNECT_TO = `bench.test:80:127.0.0.1:${(server.address() as AddressInfo).port}`;
  const gc = (globalThis as { gc?: () => void }).gc;
  console.log(`document: ${(body.length / 1024 / 1024).toFixed(1)} MiB, ${(gzipped.length / 1024 / 1024).toFixed(2)} MiB gzipped, ${URLS} URLs`);
  for (const path of ["/sitemap.xml", "/sitemap.xml.gz"]) {
    gc?.();
    const before = process.memoryUsage();
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 5);
    const started = performance.now();
    const source = await fetchXmlSource(`http://bench.test${path}`);
    const elapsed = performance.now() - started;
    clearInterval(sampler);
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    gc?.();
    const retained = process.memoryUsage().heapUsed - before.heapUsed; // the entries, still referenced
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    console.log(
      `${path.padEnd(16)} ${source.entries.length} entries in ${elapsed.toFixed(0)} ms; peak heap growth ${mib(peakHeap - before.heapUsed)} ` +
        `(garbage included), retained after GC ${mib(retained)} (the parsed entries; the document itself is ${mib(body.length)})`,
    );
  }
  server.close();
}

main();
