import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export type ProductionServer = { baseUrl: string; pid: number; stop: () => Promise<void> };

/** Whether `npm run build` has left a production build for `next start`. */
export function hasProductionBuild(): boolean {
  return existsSync(path.join(root, ".next", "BUILD_ID"));
}

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

/**
 * `next start` of the production build on 127.0.0.1:`port`, with `env` over this process's
 * environment (no DATABASE_URL, NODE_OPTIONS or e-mail and Inngest keys of the caller's), once it answers.
 * Its output goes straight into `logFile` (a temporary file by default), as a supervisor's journal
 * would take it: through a pipe this process must drain, a busy test or bench would stall the
 * server's synchronous log writes. PREHEAT_TEST_SERVER_LOG=1 prints it when the server stops.
 * `nodeArgs` go to node before the script (`--cpu-prof`).
 */
export async function startProductionServer(port: number, env: Record<string, string>, options: { logFile?: string; nodeArgs?: string[] } = {}): Promise<ProductionServer> {
  if (!hasProductionBuild()) throw new Error("No production build: run `npm run build` first (npm test does).");
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  for (const name of ["DATABASE_URL", "NODE_OPTIONS", "RESEND_API_KEY", "NEXTAUTH_URL", "INNGEST_EVENT_KEY", "INNGEST_DEV"]) delete childEnv[name];
  Object.assign(childEnv, env, { PORT: String(port) });
  const logFile = options.logFile ?? path.join(mkdtempSync(path.join(os.tmpdir(), "preheat-server-")), "server.log");
  const log = openSync(logFile, "a");
  const output = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(baseUrl, child, output);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    baseUrl,
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
      if (process.env.PREHEAT_TEST_SERVER_LOG) console.log(output());
    },
  };
}
