import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startOrigin } from "@/lib/testing/origin";
import { freePort } from "@/lib/testing/ports";
import { startProductionServer } from "@/lib/testing/production-server";
import { assertVarnishInstalled } from "@/lib/testing/varnish";

declare module "vitest" {
  export interface ProvidedContext {
    /** Per site of the suite, the port its cache (a Varnish each test starts) listens on. */
    cachePorts: Record<string, number>;
  }
}

/** The suite's sites: each reaches Preheat through its own cache, keyed as its profile says. */
export const CACHE_SITES = [
  "languages.cache.test",
  "currency.cache.test",
  "encodings.cache.test",
  "staging.cache.test",
  "firewall.cache.test",
  "blocked.cache.test",
  "check.cache.test",
  "keep-warm.cache.test",
  // traffic-order.test.ts: the two sites' front doors (nginx, in front of their caches).
  "sitemap-order.cache.test",
  "traffic-order.cache.test",
] as const;

/** The production build, its warming calls sent to each site's cache (PREHEAT_CONNECT_TO), the caches in front of one local origin. */
export default async function setup(project: TestProject) {
  assertVarnishInstalled();
  const origin = await startOrigin();
  const cachePorts = Object.fromEntries(await Promise.all(CACHE_SITES.map(async (host) => [host, await freePort()] as const)));
  const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-cache-test-"));
  const serverLog = `${dataDir}.log`;
  const connectTo = [...Object.entries(cachePorts).map(([host, port]) => `${host}:80:127.0.0.1:${port}`), `:80:127.0.0.1:${origin.port}`].join(",");
  const server = await startProductionServer(
    await freePort(),
    {
      PREHEAT_DATA_DIR: dataDir,
      PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
      PREHEAT_CONNECT_TO: connectTo,
      PREHEAT_RATE_LIMIT_PER_MINUTE: "1000000",
      PREHEAT_SECRETS_KEY: "7".repeat(64),
      // keep-warm.test.ts: a 20 s lifetime (the 60 s ÷ 3) is chased under a floor of 10 s, and
      // the slack is the least the setting allows (1 s, aimed 0.5 s after expiry): a second of the 2 s
      // default is 5 % of a 20 s lifetime, where it is under 2 % of the 60 s it stands for.
      PREHEAT_KEEP_WARM_MIN_INTERVAL_SECONDS: "10",
      PREHEAT_KEEP_WARM_SLACK_SECONDS: "1",
    },
    { logFile: serverLog },
  );
  project.provide("baseUrl", server.baseUrl);
  project.provide("originUrl", `http://127.0.0.1:${origin.port}`);
  project.provide("dataDir", dataDir);
  project.provide("databaseUrl", "");
  project.provide("serverLog", serverLog);
  project.provide("cachePorts", cachePorts);
  return async () => {
    await server.stop();
    await origin.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(serverLog, { force: true });
  };
}
