import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startOrigin } from "@/lib/testing/origin";
import { freePort } from "@/lib/testing/ports";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    originUrl: string;
    dataDir: string;
    monthlyQuota: number;
  }
}

const root = path.resolve(import.meta.dirname, "../../../../..");
export const MONTHLY_QUOTA = 50_000;

async function waitForServer(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${url}/v1/me`);
      if (response.status === 401) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer within 90 s:\n${output()}`);
}

/** Starts the production build (next start) on a fresh embedded database, with a local origin behind it. */
export default async function setup(project: TestProject) {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("No production build: run `npm run build` first (npm test does).");
  const origin = await startOrigin();
  const closedPort = await freePort(); // nothing listens there: HTTPS is refused, as on many small sites
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-test-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    PREHEAT_DATA_DIR: dataDir,
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
    PREHEAT_CONNECT_TO: `:80:127.0.0.1:${origin.port},:443:127.0.0.1:${closedPort}`,
    PREHEAT_MONTHLY_CALL_QUOTA: String(MONTHLY_QUOTA),
    NEXT_TELEMETRY_DISABLED: "1",
  };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  let output = "";
  const child = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], { cwd: root, env });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForServer(baseUrl, child, () => output);
  project.provide("baseUrl", baseUrl);
  project.provide("originUrl", `http://127.0.0.1:${origin.port}`);
  project.provide("dataDir", dataDir);
  project.provide("monthlyQuota", MONTHLY_QUOTA);

  return async () => {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
    await origin.close();
    if (process.env.PREHEAT_TEST_SERVER_LOG) console.log(output);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
