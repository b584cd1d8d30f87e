import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export type Varnish = { port: number; stop: () => Promise<void> };

const VARNISHD = "/usr/sbin/varnishd";

/** Stops at once with the one command that fixes it, rather than failing later in a confusing way. */
export function assertVarnishInstalled(): void {
  if (spawnSync(VARNISHD, ["-V"]).status !== 0) throw new Error("Varnish is not installed: apt-get install varnish (npm test installs it as root).");
}

async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`varnishd exited (${child.exitCode}):\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => resolve(socket.end() && true));
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`varnishd did not listen on ${port} within 20 s:\n${log()}`);
}

/**
 * A real cache in front of a local origin: Debian's varnishd in the foreground, on 127.0.0.1:`port`,
 * with `vcl`, its own working directory and no admin port. Varnish's own gzip handling is off
 * (`http_gzip_support`), so that Accept-Encoding reaches the VCL and the origin as visitors send it.
 */
export async function startVarnish(port: number, vcl: string): Promise<Varnish> {
  assertVarnishInstalled();
  const dir = mkdtempSync(path.join(os.tmpdir(), "preheat-varnish-"));
  writeFileSync(path.join(dir, "default.vcl"), vcl);
  let output = "";
  const child = spawn(
    VARNISHD,
    ["-F", "-j", "none", "-a", `127.0.0.1:${port}`, "-f", path.join(dir, "default.vcl"), "-n", path.join(dir, "work"), "-s", "malloc,64m", "-T", "none", "-p", "http_gzip_support=off"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await listening(port, child, () => output);
  return {
    port,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
