import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./ports";

/** Debian's PostgreSQL binaries, whatever the major version. */
export function postgresBinDir(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const version = readdirSync(base).sort((a, b) => Number(b) - Number(a))[0];
  const dir = version ? path.join(base, version, "bin") : undefined;
  return dir && existsSync(path.join(dir, "initdb")) ? dir : undefined;
}

/** PostgreSQL refuses to run as root: run it as the `postgres` user the Debian package creates. */
function asServerUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
  return { uid, gid };
}

/** A throw-away PostgreSQL server on 127.0.0.1 for tests: its own data directory, trust auth, stopped by `stop()`. */
export type PostgresServer = { url: string; stop: () => Promise<void>; pause: () => Promise<void>; resume: () => Promise<void> };

/** `statementStatistics`: pg_stat_statements loaded, for a bench to read where the server's time went (lib/bench/pg-statements.ts). */
export async function startPostgresServer(options: { statementStatistics?: boolean } = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install postgresql).");
  const user = asServerUser();
  const dir = mkdtempSync(path.join(tmpdir(), "preheat-pg-"));
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid!);
  execFileSync(path.join(bin, "initdb"), ["-D", dir, "-U", "preheat", "--auth=trust", "--no-sync", "-E", "UTF8"], { ...user, stdio: "ignore" });
  const port = await freePort();
  const statistics = options.statementStatistics ? ["-c", "shared_preload_libraries=pg_stat_statements", "-c", "pg_stat_statements.track=all"] : [];
  const launch = async (): Promise<ChildProcess> => {
    const server = spawn(path.join(bin, "postgres"), ["-D", dir, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=50", ...statistics], {
      ...user,
      stdio: "ignore",
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        execFileSync(path.join(bin, "pg_isready"), ["-h", "127.0.0.1", "-p", String(port), "-U", "preheat"], { stdio: "ignore" });
        return server;
      } catch {
        if (Date.now() > deadline || server.exitCode !== null) throw new Error("PostgreSQL did not start.");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };
  const halt = async (server: ChildProcess) => {
    // Fast shutdown: the server disconnects its clients, as when it goes away in production.
    server.kill("SIGINT");
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once("exit", resolve)));
  };
  let server = await launch();
  return {
    url: `postgres://preheat@127.0.0.1:${port}/postgres`,
    /** Stops the server, keeping its data, until `resume()`. */
    pause: () => halt(server),
    resume: async () => {
      server = await launch();
    },
    stop: async () => {
      await halt(server);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
