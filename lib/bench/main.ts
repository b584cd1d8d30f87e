import { spawnSync } from "node:child_process";
import path from "node:path";
import { postgresBinDir, startPostgresServer } from "@/lib/testing/postgres-server";

/**
 * `npm run bench [-- sitemap|sitemap-index|warming|multisite|multisite-postgres]`: each bench in a
 * process of its own; all by default. `multisite` runs on the embedded database (DATABASE_URL is
 * ignored); `multisite-postgres` runs the same cases on a throw-away PostgreSQL server it starts.
 */
type Bench = { file: string; database?: "embedded" | "postgres-server" };
const benches: Record<string, Bench> = {
  sitemap: { file: "sitemap-50k.ts" },
  "sitemap-index": { file: "sitemap-index.ts" },
  warming: { file: "warming.ts" },
  multisite: { file: "multisite.ts", database: "embedded" },
  "multisite-postgres": { file: "multisite.ts", database: "postgres-server" },
};
const asked = process.argv.slice(2);
const names = asked.length ? asked : Object.keys(benches);
for (const name of names) {
  const bench = benches[name];
  if (!bench) {
    console.error(`Unknown bench ${name}: choose among ${Object.keys(benches).join(", ")}.`);
    process.exit(2);
  }
  console.log(`\n== ${name} ==`);
  const env = { ...process.env };
  if (bench.database === "embedded") delete env.DATABASE_URL;
  if (bench.database === "postgres-server" && !postgresBinDir()) {
    console.log("skipped: PostgreSQL is not installed (apt-get install postgresql; its binaries are looked for in /usr/lib/postgresql/*/bin).");
    continue;
  }
  const server = bench.database === "postgres-server" ? await startPostgresServer() : undefined;
  if (server) env.DATABASE_URL = server.url;
  let status: number | null;
  try {
    status = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", path.join(import.meta.dirname, bench.file)], { stdio: "inherit", env }).status;
  } finally {
    await server?.stop();
  }
  if (status !== 0) process.exit(status ?? 1);
}
