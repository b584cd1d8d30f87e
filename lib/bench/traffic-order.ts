import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createApiKey } from "@/lib/auth/api-keys";
import { SCOPES } from "@/lib/auth/scopes";
import { openDatabase } from "@/lib/db";
import { freePort } from "@/lib/testing/ports";
import { startProductionServer } from "@/lib/testing/production-server";
import { ARMS, compareTrafficOrder } from "@/lib/testing/traffic-order";

/**
 * Issue 59, item 4: what warming in traffic order is worth, measured where visitors meet it. The
 * production server and its embedded worker, sites and boosts made through /v1, every warming call
 * through Preheat's outbound path (PREHEAT_CONNECT_TO) to each site's front door, a real nginx
 * writing its default `combined` access log, in front of a real Varnish, in front of a local origin;
 * all on 127.0.0.1. The experiment itself is lib/testing/traffic-order.ts: BENCH_TRAFFIC_PAGES pages
 * (5,000) with Zipf popularity (s = 1) listed in a seeded shuffle; a call limit of
 * BENCH_TRAFFIC_BUDGET (0.2) of a full warm's calls, spent once in the list's order (a site with no
 * traffic data) and once in traffic order (a site given the access log nginx wrote for
 * BENCH_TRAFFIC_LEARNING visitors, 50,000); then BENCH_TRAFFIC_VISITORS fresh visitors (50,000) to
 * both, who never fill a cache themselves. BENCH_TRAFFIC_LIST_SEED shuffles the list another way: which
 * pages the list's first fifth holds is chance (on average a fifth of the visits).
 */
const PAGES = Number(process.env.BENCH_TRAFFIC_PAGES ?? 5_000);
const BUDGET = Number(process.env.BENCH_TRAFFIC_BUDGET ?? 0.2);
const LEARNING = Number(process.env.BENCH_TRAFFIC_LEARNING ?? 50_000);
const VISITORS = Number(process.env.BENCH_TRAFFIC_VISITORS ?? 50_000);
const LIST_SEED = process.env.BENCH_TRAFFIC_LIST_SEED ? Number(process.env.BENCH_TRAFFIC_LIST_SEED) : undefined;

const percent = (share: number | null | undefined) => (share === null || share === undefined ? "n/a" : `${(share * 100).toFixed(1)} %`);

async function main() {
  const started = performance.now();
  const versions = ["/usr/sbin/varnishd", "/usr/sbin/nginx"].map((bin) => spawnSync(bin, ["-V"]).stderr.toString().split("\n")[0]).join(", ");
  console.log(
    `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}, ${versions}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const hosts = { sitemap: "sitemap-order.traffic.bench.test", traffic: "traffic-order.traffic.bench.test" };
  const ports = new Set<number>();
  while (ports.size < ARMS.length) ports.add(await freePort());
  const frontDoors = Object.fromEntries(ARMS.map((arm, i) => [hosts[arm], [...ports][i]!]));

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "preheat-bench-traffic-order-"));
  const handle = await openDatabase({ dataDir });
  const { user } = await findOrCreateUser(handle.db, "traffic-order@bench.test");
  const key = (await createApiKey(handle.db, { accountId: user.accountId, name: "bench", scopes: [...SCOPES] })).key;
  await handle.close();
  // HTTPS too: validation tries it first; nginx speaks plain HTTP there, so that attempt fails at once.
  const connectTo = Object.entries(frontDoors)
    .flatMap(([host, port]) => [`${host}:80:127.0.0.1:${port}`, `${host}:443:127.0.0.1:${port}`])
    .join(",");
  const server = await startProductionServer(await freePort(), {
    PREHEAT_DATA_DIR: dataDir,
    PREHEAT_CONNECT_TO: connectTo,
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
    PREHEAT_RATE_LIMIT_PER_MINUTE: "1000000",
    PREHEAT_MONTHLY_CALL_QUOTA: "1000000000",
  });
  try {
    console.log(`${PAGES} pages (Zipf, s = 1, listed in a seeded shuffle), a budget of ${percent(BUDGET)} of a full warm's calls, ${LEARNING} learning visitors, ${VISITORS} measured visitors`);
    const result = await compareTrafficOrder({
      baseUrl: server.baseUrl,
      key,
      pages: PAGES,
      budgetShare: BUDGET,
      learningVisits: LEARNING,
      visits: VISITORS,
      hosts,
      frontDoors,
      listSeed: LIST_SEED,
      runTimeoutMs: 600_000,
      progress: (line) => console.log(line),
    });
    const { sitemap, traffic } = result.arms;
    console.log(`\nfull warm: ${result.fullWarmCalls} calls (${result.pages} URLs × 1 variant × 1 region); call_limit ${result.budget}`);
    console.log(
      "| order | run's calls (status) | run s | pages warmed | visit_share (Preheat: estimate / run) | learning visits to the warmed pages | expected hit ratio | visitors' hit ratio (hits / visits) |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const arm of ARMS) {
      const r = result.arms[arm];
      console.log(
        `| ${arm} | ${r.calls} (${r.status}) | ${r.runSeconds.toFixed(1)} | ${r.warmedPages} | ${percent(r.estimateShare?.share)} / ${percent(r.runShare?.share)} | ${percent(r.learnedShare)} | ${r.expectedHitRatio.toFixed(3)} | **${r.hitRatio.toFixed(3)}** (${r.hits} / ${r.visits}) |`,
      );
    }
    console.log(
      `traffic ÷ sitemap: ${(traffic.hitRatio / sitemap.hitRatio).toFixed(2)}× the hit ratio for ${(traffic.calls / Math.max(1, sitemap.calls)).toFixed(2)}× the calls; the best any ${result.budget} pages can give: ${result.bestHitRatio.toFixed(3)}; ${result.budget} pages drawn at random carry ${BUDGET.toFixed(3)} on average`,
    );
    console.log(`times: learning ${result.learning.seconds.toFixed(1)} s, visitors ${result.visitSeconds.toFixed(1)} s, whole bench ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
