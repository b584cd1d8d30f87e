import { serveCommands } from "@/lib/cli/control-socket";
import { closeDatabase, getDatabaseHandle } from "@/lib/db";
import { controlSocketPath } from "@/lib/db/paths";
import { inngestConfigured } from "./config";
import { startJobs, stopJobs } from "./start";

/** `npm run worker`: a process that only works the job queue (pg-boss), next to or instead of the server's. */
async function main() {
  if (inngestConfigured()) {
    console.error("Inngest is configured (INNGEST_EVENT_KEY / INNGEST_DEV): Inngest runs the functions served at /api/inngest; no worker process is needed.");
    process.exit(2);
  }
  const handle = await getDatabaseHandle();
  // Without a server, this process owns the embedded database: the CLI reaches it here.
  const stopCommands = handle.kind === "embedded" ? await serveCommands(handle.db, controlSocketPath()) : async () => {};
  await startJobs(handle, { work: true });
  console.log(`[worker] working the job queue (${handle.kind === "postgres" ? "Postgres server" : "embedded database"}); pid ${process.pid}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
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
