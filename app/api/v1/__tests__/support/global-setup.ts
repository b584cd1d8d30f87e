import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startOrigin } from "@/lib/testing/origin";
import { freePort } from "@/lib/testing/ports";
import { startProductionServer } from "@/lib/testing/production-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    originUrl: string;
    dataDir: string;
    monthlyQuota: number;
  }
}

export const MONTHLY_QUOTA = 50_000;

/** Starts the production build (next start) on a fresh embedded database, with a local origin behind it. */
export default async function setup(project: TestProject) {
  const origin = await startOrigin();
  const closedPort = await freePort(); // nothing listens there: HTTPS is refused, as on many small sites
  const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-test-"));
  const server = await startProductionServer(await freePort(), {
    PREHEAT_DATA_DIR: dataDir,
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
    PREHEAT_CONNECT_TO: `:80:127.0.0.1:${origin.port},:443:127.0.0.1:${closedPort}`,
    PREHEAT_MONTHLY_CALL_QUOTA: String(MONTHLY_QUOTA),
    // The API tests play a reverse proxy from 127.0.0.2 (support/api.ts, TRUSTED_PROXY).
    PREHEAT_TRUSTED_PROXIES: "127.0.0.2",
    // The suite shares a few keys and one client address; rate-limits.test.ts checks the budget on its own servers.
    PREHEAT_RATE_LIMIT_PER_MINUTE: "1000000",
  });
  project.provide("baseUrl", server.baseUrl);
  project.provide("originUrl", `http://127.0.0.1:${origin.port}`);
  project.provide("dataDir", dataDir);
  project.provide("monthlyQuota", MONTHLY_QUOTA);

  return async () => {
    await server.stop();
    await origin.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
