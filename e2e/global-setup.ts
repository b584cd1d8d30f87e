import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startOrigin } from "../lib/testing/origin";
import { e2ePorts } from "./support/ports";

const root = path.resolve(import.meta.dirname, "..");

async function waitForServer(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(`${url}/v1/me`)).status === 401) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer within 90 s:\n${output()}`);
}

/** The production build on a fresh embedded database, and the local origin it warms. */
export default async function globalSetup() {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("No production build: run `npm run build` first (npm test does).");
  const origin = await startOrigin(e2ePorts.origin);
  const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-e2e-"));
  const baseUrl = `http://127.0.0.1:${e2ePorts.app}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(e2ePorts.app),
    PREHEAT_DATA_DIR: dataDir,
    PREHEAT_BASE_URL: baseUrl,
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
    // Every site the test registers is served by the local origin; HTTPS finds nothing listening.
    PREHEAT_CONNECT_TO: `:80:127.0.0.1:${e2ePorts.origin},:443:127.0.0.1:${e2ePorts.closed}`,
    PREHEAT_JOBS_POLL_SECONDS: "0.5",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  for (const name of ["DATABASE_URL", "NODE_OPTIONS", "RESEND_API_KEY", "NEXTAUTH_URL", "INNGEST_EVENT_KEY", "INNGEST_DEV"]) delete env[name];
  let output = "";
  const child = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(e2ePorts.app), "-H", "127.0.0.1"], { cwd: root, env });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  await waitForServer(baseUrl, child, () => output);

  return async () => {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
    await origin.close();
    if (process.env.PREHEAT_TEST_SERVER_LOG) console.log(output);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
