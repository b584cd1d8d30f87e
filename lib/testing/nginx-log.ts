import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const NGINX = process.env.NGINX_PATH || "/usr/sbin/nginx";

/** One site behind the front door: nginx answers `host` on 127.0.0.1:`listen` and hands every request to 127.0.0.1:`upstream` (its cache). */
export type FrontDoorSite = { host: string; listen: number; upstream: number };

export type FrontDoor = {
  /** The access log nginx wrote for `host` so far: its default `combined` format, one line a request. */
  accessLog: (host: string) => Buffer;
  stop: () => Promise<void>;
};

/** Stops at once with the one command that fixes it, rather than failing later in a confusing way. */
function assertNginxInstalled(): void {
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed at ${NGINX}: apt-get install nginx (npm test installs it as root).`);
}

async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => resolve(socket.end() && true));
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nginx did not listen on ${port} within 20 s:\n${log()}`);
}

/**
 * A site's front door as many run it: Debian's nginx in front of the cache, writing the access log an
 * owner would upload to Preheat. One nginx (one worker process) in the foreground with its own prefix,
 * pid, logs and temporary files in a directory of its own; a server per site, each with its own access
 * log in nginx's default `combined` format (no `log_format` of ours: what an untouched nginx writes).
 * The Host header goes through unchanged, so the cache keys as it would without nginx.
 */
export async function startFrontDoor(sites: FrontDoorSite[]): Promise<FrontDoor> {
  assertNginxInstalled();
  const dir = mkdtempSync(path.join(os.tmpdir(), "preheat-nginx-front-"));
  // Run as root, nginx's worker runs as nobody: it must reach the temporary directories.
  chmodSync(dir, 0o755);
  const logOf = (host: string) => path.join(dir, `${host}.access.log`);
  const conf = [
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    "worker_processes 1;",
    "events { worker_connections 1024; }",
    "http {",
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${dir}/${kind}_temp;`),
    ...sites.flatMap((site, i) => [
      `  upstream cache_${i} { server 127.0.0.1:${site.upstream}; keepalive 32; }`,
      "  server {",
      `    listen 127.0.0.1:${site.listen};`,
      `    server_name ${site.host};`,
      `    access_log ${logOf(site.host)};`,
      "    location / {",
      `      proxy_pass http://cache_${i};`,
      "      proxy_http_version 1.1;",
      '      proxy_set_header Connection "";',
      "      proxy_set_header Host $host;",
      "    }",
      "  }",
    ]),
    "}",
    "",
  ].join("\n");
  const confPath = path.join(dir, "nginx.conf");
  writeFileSync(confPath, conf);
  const args = ["-p", dir, "-e", path.join(dir, "error.log"), "-c", confPath];
  execFileSync(NGINX, [...args, "-t", "-q"], { stdio: "pipe" });
  let output = "";
  const child = spawn(NGINX, [...args, "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const log = () => `${output}${existsSync(path.join(dir, "error.log")) ? readFileSync(path.join(dir, "error.log"), "utf8") : ""}`;
  try {
    for (const port of new Set(sites.map((site) => site.listen))) await listening(port, child, log);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    accessLog: (host) => (existsSync(logOf(host)) ? readFileSync(logOf(host)) : Buffer.alloc(0)),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        // SIGQUIT: nginx's graceful shutdown; the worker ends with its master.
        child.kill("SIGQUIT");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
