import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts `npm run worker` on an embedded database; answers the priority its pid runs at once it works the queue, and its start line. */
function workerPriority(env: Record<string, string>): Promise<{ priority: number; line: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "preheat-priority-"));
  dataDirs.push(dataDir);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "lib/worker/main.ts"], {
      cwd: root,
      env: { ...process.env, PREHEAT_DATA_DIR: dataDir, DATABASE_URL: "", INNGEST_EVENT_KEY: "", INNGEST_DEV: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const line = output.split("\n").find((l) => l.startsWith("[worker] working the job queue"));
      if (!line) return;
      const priority = os.getPriority(child.pid);
      child.kill("SIGTERM");
      resolve({ priority, line });
    });
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker stopped (${code}) before working the queue:\n${output}`));
    });
  });
}

describe("npm run worker", () => {
  // The worker may start at a lower priority already (a niced test run): it lowers, never raises.
  const inherited = os.getPriority();

  it("lowers its priority to nice 10 by default, so that a web server on its machine answers first", async () => {
    const { priority, line } = await workerPriority({});
    expect(priority).toBe(Math.max(inherited, 10));
    expect(line).toContain(`nice ${priority}`);
  }, 90_000);

  it("keeps its start priority with PREHEAT_WORKER_NICE=0", async () => {
    const { priority } = await workerPriority({ PREHEAT_WORKER_NICE: "0" });
    expect(priority).toBe(inherited);
  }, 90_000);
});
