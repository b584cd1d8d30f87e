import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createApiKey } from "@/lib/auth/api-keys";
import { SCOPES } from "@/lib/auth/scopes";
import { openDatabase } from "@/lib/db";
import { freePort } from "@/lib/testing/ports";
import { startProductionServer } from "@/lib/testing/production-server";

/**
 * An access log uploaded through the production server (issue 59: "a 1 GiB file read within a fixed
 * memory bound"), beside the same stream posted to a bare node:http server that only drains it, in
 * the same run: Preheat's rate as a ratio of the transport's, and the server's RSS growth while it
 * reads. The log is nginx's `combined` format, generated as it is sent (never on disk), 50,000
 * pages over an hour. BENCH_TRAFFIC_UPLOAD_MIB (default 1,000: under the 1 GiB default limit).
 */
const MIB = Number(process.env.BENCH_TRAFFIC_UPLOAD_MIB ?? 1_000);
const SIZE = MIB * 1024 * 1024;

/** The log, a chunk of 2,000 lines at a time, until `size` bytes. */
function logStream(size: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let sent = 0;
  let n = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const lines: string[] = [];
      for (let i = 0; i < 2_000; i++, n++) {
        lines.push(
          `203.0.113.${n % 250} - - [28/Nov/2026:10:${String(n % 60).padStart(2, "0")}:32 +0000] "GET /product/${(n * 7919) % 50_000} HTTP/1.1" 200 5120 "-" "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"`,
        );
      }
      // Whole lines: the last chunk may pass `size` by a few hundred kilobytes.
      const chunk = encoder.encode(`${lines.join("\n")}\n`);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

const post = (url: string, headers: Record<string, string>) => fetch(url, { method: "POST", headers, body: logStream(SIZE), duplex: "half" } as RequestInit);

/** The transport's own rate: the same stream to a server that reads and drops it. */
async function bareRate(): Promise<number> {
  const server = http.createServer((req, res) => {
    req.on("data", () => {});
    req.on("end", () => res.end("{}"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const started = performance.now();
  await (await post(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { "content-type": "application/octet-stream" })).text();
  const seconds = (performance.now() - started) / 1000;
  server.close();
  return MIB / seconds;
}

const rssMib = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-bench-upload-"));
const handle = await openDatabase({ dataDir });
const { user } = await findOrCreateUser(handle.db, "upload@bench.test");
const key = (await createApiKey(handle.db, { accountId: user.accountId, name: "bench", scopes: [...SCOPES] })).key;
await handle.close();
const server = await startProductionServer(await freePort(), { PREHEAT_DATA_DIR: dataDir, PREHEAT_SECRETS_KEY: randomBytes(32).toString("hex") });
try {
  const json = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const site = await (await fetch(`${server.baseUrl}/v1/sites`, { method: "POST", headers: json, body: JSON.stringify({ domain: "upload.bench.test" }) })).json();
  const source = await (await fetch(`${server.baseUrl}/v1/sites/${site.id}/traffic-sources`, { method: "POST", headers: json, body: JSON.stringify({ kind: "access_log" }) })).json();
  const before = rssMib(server.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMib(server.pid))), 100);
  const started = performance.now();
  const response = await post(`${server.baseUrl}/v1/sites/${site.id}/traffic-sources/${source.id}/upload`, { authorization: `Bearer ${key}`, "content-type": "application/octet-stream" });
  const answer = await response.json();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (response.status !== 200) throw new Error(`the upload answered ${response.status}: ${JSON.stringify(answer)}`);
  const bare = await bareRate();
  const rate = MIB / seconds;
  console.log(`upload of ${MIB.toLocaleString("en")} MiB (${answer.counts.lines.toLocaleString("en")} lines, ${answer.counts.paths.toLocaleString("en")} paths, ${answer.counts.broken} broken)`);
  console.log(`  through Preheat: ${seconds.toFixed(1)} s, ${rate.toFixed(1)} MiB/s; server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB (+${(peak - before).toFixed(0)} MiB)`);
  console.log(`  bare node:http drain: ${bare.toFixed(1)} MiB/s`);
  console.log(`  ratio (Preheat / bare transport): ${(rate / bare).toFixed(3)}`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
