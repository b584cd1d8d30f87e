import { spawnSync } from "node:child_process";
import path from "node:path";
import { postgresBinDir, startPostgresServer } from "@/lib/testing/postgres-server";
import { hasProductionBuild } from "@/lib/testing/production-server";

/**
 * `npm run bench [-- sitemap|sitemap-index|warming|warming-postgres|signing|multisite|multisite-postgres|api|ingest-latency|keep-warm|keep-warm-scale|changes|traffic-order|traffic-upload]`: each case in a
 * process of its own; all by default. `embedded` cases ignore DATABASE_URL; `postgres-server` ones
 * run on a throw-away PostgreSQL server started here. `sitemap` is the 50,000-URL parse and the
 * 1,000,000-URL index on both databases; `sitemap-index` the index alone, on DATABASE_URL or embedded.
 * The cases that go through the production server build it first when there is no build yet.
 */
type Case = { file: string; database?: "embedded" | "postgres-server" };
/** The benches that start the production server (`next start`): they need `npm run build`. */
const THROUGH_THE_SERVER = new Set(["tenants.ts", "api.ts", "ingest-latency.ts", "keep-warm.ts", "changes.ts", "traffic-order.ts", "traffic-upload.ts"]);
const benches: Record<string, Case[]> = {
  sitemap: [{ file: "sitemap-50k.ts" }, { file: "sitemap-index.ts", database: "postgres-server" }, { file: "sitemap-index.ts", database: "embedded" }],
  "sitemap-index": [{ file: "sitemap-index.ts" }],
  // The API beside big work: GET /v1/me through the server while it ingests a 10 × 50,000-URL index.
  "ingest-latency": [{ file: "ingest-latency.ts", database: "embedded" }],
  warming: [{ file: "warming.ts", database: "embedded" }],
  // The same per-call line with the database's work off the worker's thread, in PostgreSQL's processes.
  "warming-postgres": [{ file: "warming.ts", database: "postgres-server" }],
  signing: [{ file: "signing.ts" }],
  // As people run it (the server, through /v1), then the engine alone (in-process, all queued first).
  multisite: [
    { file: "tenants.ts", database: "embedded" },
    { file: "multisite.ts", database: "embedded" },
  ],
  "multisite-postgres": [
    { file: "tenants.ts", database: "postgres-server" },
    { file: "multisite.ts", database: "postgres-server" },
  ],
  api: [
    { file: "api.ts", database: "embedded" },
    { file: "api.ts", database: "postgres-server" },
    { file: "ingest-latency.ts", database: "embedded" },
  ],
  // Visitors' hit ratio behind two real caches (Varnish) with no warmer, a cron warmer and keep-warm, through the server.
  "keep-warm": [{ file: "keep-warm.ts", database: "embedded" }],
  // The keep-warm scheduler's cost per due entry and its lateness: 1,000,000 entries on PostgreSQL, 100,000 embedded.
  "keep-warm-scale": [
    { file: "keep-warm-scale.ts", database: "postgres-server" },
    { file: "keep-warm-scale.ts", database: "embedded" },
  ],
  // A change's time to its first warming call while a 10,000-page boost warms the same site, through the server (issue 58).
  changes: [{ file: "changes.ts", database: "embedded" }],
  // Visitors' hit ratio when a 20 % call budget is spent in the sitemap's order and in traffic order learned from nginx's access log (issue 59).
  "traffic-order": [{ file: "traffic-order.ts", database: "embedded" }],
  // An access log of 1,000 MiB uploaded through the server: its rate beside the bare transport's, and the server's memory growth (issue 59).
  "traffic-upload": [{ file: "traffic-upload.ts", database: "embedded" }],
};
const asked = process.argv.slice(2);
// sitemap-index is part of sitemap, ingest-latency part of api: all of them runs each once.
const names = asked.length ? asked : Object.keys(benches).filter((name) => name !== "sitemap-index" && name !== "ingest-latency");
const unknown = names.find((name) => !benches[name]);
if (unknown) {
  console.error(`Unknown bench ${unknown}: choose among ${Object.keys(benches).join(", ")}.`);
  process.exit(2);
}
if (names.some((name) => benches[name]!.some((bench) => THROUGH_THE_SERVER.has(bench.file))) && !hasProductionBuild()) {
  console.log("No production build yet: npm run build first.");
  const built = spawnSync("npm", ["run", "build"], { cwd: path.resolve(import.meta.dirname, "../.."), stdio: "inherit" }).status;
  if (built !== 0) process.exit(built ?? 1);
}
for (const name of names) {
  const cases = benches[name]!;
  for (const bench of cases) {
    console.log(`\n== ${name}${cases.length > 1 ? ` (${bench.file}${bench.database ? `, ${bench.database}` : ""})` : ""} ==`);
    const env = { ...process.env };
    if (bench.database === "embedded") delete env.DATABASE_URL;
    if (bench.database === "postgres-server" && !postgresBinDir()) {
      console.log("skipped: PostgreSQL is not installed (apt-get install postgresql; its binaries are looked for in /usr/lib/postgresql/*/bin).");
      continue;
    }
    const server = bench.database === "postgres-server" ? await startPostgresServer({ statementStatistics: process.env.BENCH_PG_STATEMENTS === "1" }) : undefined;
    if (server) env.DATABASE_URL = server.url;
    let status: number | null;
    try {
      status = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", path.join(import.meta.dirname, bench.file)], { stdio: "inherit", env }).status;
    } finally {
      await server?.stop();
    }
    if (status !== 0) process.exit(status ?? 1);
  }
}
