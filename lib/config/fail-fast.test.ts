import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-config-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs a process of the product with a bad setting; it must stop on its own, at once. */
function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], {
      cwd: root,
      env: { ...process.env, PREHEAT_DATA_DIR: dataDir, DATABASE_URL: "", INNGEST_EVENT_KEY: "", INNGEST_DEV: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 25_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("a bad configuration value stops each entry point before it does anything", () => {
  it("npm run worker", async () => {
    const { code, output } = await run(["lib/worker/main.ts"], { PREHEAT_SITE_CONCURRENCY: "abc" });
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(output).toContain('[worker] invalid configuration: PREHEAT_SITE_CONCURRENCY="abc" is invalid');
  });

  it("the CLI, naming every bad variable and no secret", async () => {
    const { code, output } = await run(["lib/cli/main.ts", "keys", "list"], { PREHEAT_SITE_CONCURRENCY: "abc", PREHEAT_METRICS_TOKEN: "hunter2 hunter2" });
    expect(code).toBe(1);
    expect(output).toContain("invalid configuration (2 variables)");
    expect(output).toContain('PREHEAT_SITE_CONCURRENCY="abc"');
    expect(output).toContain("PREHEAT_METRICS_TOKEN (value hidden)");
    expect(output).not.toContain("hunter2");
  });

  it("the server's start-up hook (npm start)", async () => {
    const { code, output } = await run(["--input-type=module", "--eval", 'await (await import("./lib/server/start.ts")).startServer();'], { PREHEAT_SITE_CONCURRENCY: "abc" });
    expect(code).toBe(1);
    expect(output).toContain("[preheat] cannot start: invalid configuration: PREHEAT_SITE_CONCURRENCY");
  });

  it("opened no database", () => {
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
