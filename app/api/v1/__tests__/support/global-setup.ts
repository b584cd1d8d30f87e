import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startOrigin } from "@/lib/testing/origin";
import { freePort } from "@/lib/testing/ports";
import { startPostgresServer } from "@/lib/testing/postgres-server";
import { startProductionServer } from "@/lib/testing/production-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    originUrl: string;
    dataDir: string;
    /** The PostgreSQL server's URL when the suite runs on one, otherwise "". */
    databaseUrl: string;
    monthlyQuota: number;
    metricsToken: string;
    /** Every /metrics of the suite's processes: the server's, and each separate worker's. */
    metricsUrls: string[];
    serverLog: string;
  }
}

const root = path.resolve(import.meta.dirname, "../../../../..");

export const MONTHLY_QUOTA = 50_000;
const METRICS_TOKEN = "metrics-token-for-tests";

/** PREHEAT_TEST_DATABASE=postgres (npm run test:postgres): the same suite on a PostgreSQL server, its jobs worked by two separate worker processes. */
const onPostgres = process.env.PREHEAT_TEST_DATABASE === "postgres";
const WORKERS = 2;

function startWorker(env: Record<string, string>): ChildProcess {
  const worker = spawn(process.execPath, ["--import", "tsx", "lib/worker/main.ts"], { cwd: root, env: { ...process.env, NODE_OPTIONS: "", ...env }, stdio: ["ignore", "ignore", "inherit"] });
  return worker;
}

/** Starts the production build (next start) on a fresh database (embedded, or a PostgreSQL server), with a local origin behind it. */
export default async function setup(project: TestProject) {
  const origin = await startOrigin();
  const closedPort = await freePort(); // nothing listens there: HTTPS is refused, as on many small sites
  const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-test-"));
  const serverLog = `${dataDir}.log`;
  const database = onPostgres ? await startPostgresServer() : undefined;
  const env: Record<string, string> = {
    ...(database ? { DATABASE_URL: database.url, PREHEAT_EMBEDDED_WORKER: "false" } : { PREHEAT_DATA_DIR: dataDir }),
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
    PREHEAT_CONNECT_TO: `:80:127.0.0.1:${origin.port},:443:127.0.0.1:${closedPort}`,
    // No resolver listens there either: the DNS proof of a validation is refused at once, and no
    // test asks a resolver of the machine's (dns-validation.test.ts runs a DNS server of its own).
    PREHEAT_DNS_SERVERS: `127.0.0.1:${closedPort}`,
    PREHEAT_MONTHLY_CALL_QUOTA: String(MONTHLY_QUOTA),
    // The API tests play a reverse proxy from 127.0.0.2 (support/api.ts, TRUSTED_PROXY).
    PREHEAT_TRUSTED_PROXIES: "127.0.0.2",
    // The suite shares a few keys and one client address; two-servers.test.ts checks the budget on its own servers.
    PREHEAT_RATE_LIMIT_PER_MINUTE: "1000000",
    PREHEAT_METRICS_TOKEN: METRICS_TOKEN,
    // A webhook's receiver that answered 500 hears again within seconds, not a minute.
    PREHEAT_WEBHOOK_RETRY_BASE_SECONDS: "1",
    // Every warming call signed (Web Bot Auth), its keys and request profiles' Basic auth passwords
    // sealed under a key of this run's (request-profile.test.ts, verification.test.ts).
    PREHEAT_BOT_SIGNATURES: "true",
    PREHEAT_SECRETS_KEY: randomBytes(32).toString("hex"),
    // The analytics APIs are local stand-ins served by the origin (traffic.test.ts), and an upload's
    // limit small enough to pass in a test.
    PREHEAT_PLAUSIBLE_BASE_URL: "http://plausible.test",
    PREHEAT_GA4_BASE_URL: "http://ga4.test",
    PREHEAT_GOOGLE_TOKEN_URL: "http://google-oauth.test/token",
    PREHEAT_TRAFFIC_UPLOAD_MAX_BYTES: String(8 * 1024 * 1024),
  };
  const port = await freePort();
  const server = await startProductionServer(port, env, { logFile: serverLog });
  // Started once the server has applied the migrations.
  const workerMetricsPorts = database ? await Promise.all(Array.from({ length: WORKERS }, () => freePort())) : [];
  // A worker has no port of its own: it names the service (in PreheatBot's User-Agent, in e-mails) by the server's address.
  const workers = workerMetricsPorts.map((metricsPort) => startWorker({ ...env, PREHEAT_BASE_URL: `http://localhost:${port}`, PREHEAT_WORKER_METRICS_PORT: String(metricsPort) }));
  project.provide("baseUrl", server.baseUrl);
  project.provide("originUrl", `http://127.0.0.1:${origin.port}`);
  project.provide("dataDir", dataDir);
  project.provide("databaseUrl", database?.url ?? "");
  project.provide("monthlyQuota", MONTHLY_QUOTA);
  project.provide("metricsToken", METRICS_TOKEN);
  project.provide("serverLog", serverLog);
  project.provide("metricsUrls", [`${server.baseUrl}/metrics`, ...workerMetricsPorts.map((port) => `http://127.0.0.1:${port}/metrics`)]);

  return async () => {
    for (const worker of workers) worker.kill("SIGTERM");
    await Promise.all(workers.map((worker) => (worker.exitCode !== null ? undefined : new Promise((resolve) => worker.once("exit", resolve)))));
    await server.stop();
    await database?.stop();
    await origin.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(serverLog, { force: true });
  };
}
