import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startOrigin } from "../lib/testing/origin";
import { startProductionServer } from "../lib/testing/production-server";
import { e2ePorts } from "./support/ports";

/** The production build on a fresh embedded database, and the local origin it warms. */
export default async function globalSetup() {
  const origin = await startOrigin(e2ePorts.origin);
  const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-e2e-"));
  const server = await startProductionServer(e2ePorts.app, {
    PREHEAT_DATA_DIR: dataDir,
    PREHEAT_BASE_URL: `http://127.0.0.1:${e2ePorts.app}`,
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
    // Every site the test registers is served by the local origin; HTTPS finds nothing listening.
    PREHEAT_CONNECT_TO: `:80:127.0.0.1:${e2ePorts.origin},:443:127.0.0.1:${e2ePorts.closed}`,
    // No resolver listens there: a validation's DNS proof is refused at once, without asking the machine's resolvers.
    PREHEAT_DNS_SERVERS: `127.0.0.1:${e2ePorts.closed}`,
    PREHEAT_JOBS_POLL_SECONDS: "0.5",
    // Change receivers seal their secrets: a fixed test key, as an operator would set one.
    PREHEAT_SECRETS_KEY: "e2e0".repeat(16),
    // The browser connects as 127.0.0.1, as a proxy in front would: each new owner signs up from an
    // address of its own (signUpAndSignIn), so that the suite's many sign-ups stay within the hour's budget.
    PREHEAT_TRUSTED_PROXIES: "127.0.0.1",
  });

  // The tests read e-mails (sign-up links) from the outbox through the operator CLI, which needs the data directory.
  process.env.PREHEAT_E2E_DATA_DIR = dataDir;

  return async () => {
    await server.stop();
    await origin.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
