import { count } from "drizzle-orm";
import { users } from "@/drizzle/schema";
import { serveCommands } from "@/lib/cli/control-socket";
import { checkConfig, setting } from "@/lib/config";
import { closeDatabase, getDatabaseHandle } from "@/lib/db";
import { controlSocketPath, dataDirectory } from "@/lib/db/paths";
import { provideSecretsKey } from "@/lib/secrets/key-file";
import { embeddedWorkerEnabled } from "@/lib/worker/config";
import { startJobs, stopJobs } from "@/lib/worker/start";
import { installInngestDriver } from "@/inngest/driver";
import { inngestConfigured } from "@/lib/jobs";
import { publicBaseUrl } from "@/lib/config/base-url";

async function printFirstRunHint(): Promise<void> {
  const { db } = await getDatabaseHandle();
  const [row] = await db.select({ n: count() }).from(users);
  if (row && row.n > 0) return;
  console.log(
    [
      "",
      "  Preheat is ready, with an empty database.",
      `  Dashboard:  open ${publicBaseUrl()}/signup to create your account, then API keys → Create key.`,
      ...(setting("RESEND_API_KEY") ? [] : ["  No e-mail is sent (RESEND_API_KEY unset): read your confirmation link with  npm run --silent cli -- emails --to you@example.com"]),
      "  Or, from a terminal:  npm run --silent cli -- keys create --email you@example.com --scopes all",
      `  then call the API:  curl -H "Authorization: Bearer <key>" ${publicBaseUrl()}/v1/me`,
      `  API reference:      ${publicBaseUrl()}/docs/api`,
      "",
    ].join("\n"),
  );
}

function closeOnExit(stopCommands: () => Promise<void>): void {
  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    // Close PGlite cleanly so the data directory is consistent on the next start.
    stopCommands()
      .then(stopJobs)
      .then(closeDatabase)
      .catch((error) => console.error("[preheat] closing the database failed", error))
      .finally(() => process.exit(signal === "SIGINT" ? 130 : 0));
  };
  process.once("SIGTERM", close);
  process.once("SIGINT", close);
}

/** Opens and migrates the database, starts the jobs, takes CLI commands, and says how to begin. */
export async function startServer(): Promise<void> {
  let stopCommands = async () => {};
  try {
    checkConfig(); // a bad value of any variable stops the start, naming it
    provideSecretsKey(dataDirectory());
    const handle = await getDatabaseHandle();
    console.log(`[preheat] database ready (${handle.kind === "postgres" ? "Postgres server" : `embedded PGlite in ${setting("PREHEAT_DATA_DIR")}`})`);
    if (handle.kind === "embedded") stopCommands = await serveCommands(handle.db, controlSocketPath());
    // Inngest, when configured, runs the functions served at /api/inngest: this process only sends events.
    if (inngestConfigured()) installInngestDriver();
    const jobs = inngestConfigured() ? undefined : await startJobs(handle);
    console.log(`[preheat] background jobs: ${jobs ? (embeddedWorkerEnabled() ? "embedded worker (pg-boss)" : "pg-boss, worked by npm run worker") : "Inngest"}`);
  } catch (error) {
    console.error(`[preheat] cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
  closeOnExit(stopCommands);
  await printFirstRunHint();
}
