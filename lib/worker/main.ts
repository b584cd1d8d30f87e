import { serveCommands } from "@/lib/cli/control-socket";
import { checkConfig, setting } from "@/lib/config";
import { closeDatabase, getDatabaseHandle } from "@/lib/db";
import { controlSocketPath, dataDirectory } from "@/lib/db/paths";
import { provideSecretsKey } from "@/lib/secrets/key-file";
import { serveWorkerMetrics } from "@/lib/observability/metrics-endpoint";
import type { RegionCode } from "@/lib/core/regions";
import { parseWorkerRegions, setWorkerRegions, workerRegions } from "@/lib/warm/workers";
import { inngestConfigured } from "@/lib/jobs";
import { yieldToRequests } from "./priority";
import { startJobs, stopJobs } from "./start";

/** `--regions de,fr` (or `--regions=de,fr`), else PREHEAT_WORKER_REGIONS: the regions whose calls this worker takes. */
function regionsArgument(argv: string[]): RegionCode[] {
  const index = argv.findIndex((arg) => arg === "--regions" || arg.startsWith("--regions="));
  if (index < 0) return setting("PREHEAT_WORKER_REGIONS");
  const value = argv[index]!.includes("=") ? argv[index]!.slice("--regions=".length) : argv[index + 1];
  if (!value || value.startsWith("--")) throw new Error("--regions needs a list of region codes, e.g. --regions de,fr.");
  return parseWorkerRegions(value);
}

/** `npm run worker [-- --regions de,fr]`: a process that only works the job queue (pg-boss), next to or instead of the server's. */
async function main() {
  checkConfig(); // a bad value of any variable stops the start, naming it
  provideSecretsKey(dataDirectory());
  setWorkerRegions(regionsArgument(process.argv.slice(2)));
  // On a machine shared with a web server, the API's requests get the CPU first (PREHEAT_WORKER_NICE).
  const nice = yieldToRequests(setting("PREHEAT_WORKER_NICE"));
  if (inngestConfigured()) {
    console.error("Inngest is configured (INNGEST_EVENT_KEY / INNGEST_DEV): Inngest runs the functions served at /api/inngest; no worker process is needed.");
    process.exit(2);
  }
  const handle = await getDatabaseHandle();
  // Without a server, this process owns the embedded database: the CLI reaches it here.
  const stopCommands = handle.kind === "embedded" ? await serveCommands(handle.db, controlSocketPath()) : async () => {};
  await startJobs(handle, { work: true });
  const metricsPort = setting("PREHEAT_WORKER_METRICS_PORT");
  const metricsServer = metricsPort ? serveWorkerMetrics(metricsPort, async () => handle.db) : undefined;
  const regions = workerRegions();
  const takes = regions.length ? `the calls of ${regions.join(", ")} only` : "the calls of every region without a regional worker";
  console.log(
    `[worker] working the job queue (${handle.kind === "postgres" ? "Postgres server" : "embedded database"}), ${takes}; pid ${process.pid}, nice ${nice}${metricsPort ? `; metrics on :${metricsPort}/metrics` : ""}`,
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    metricsServer?.close();
    await stopCommands();
    await stopJobs();
    await closeDatabase();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((error) => {
  console.error(`[worker] ${(error as Error).message}`);
  process.exit(1);
});
