import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createApiKey } from "@/lib/auth/api-keys";
import { SCOPES } from "@/lib/auth/scopes";
import { openDatabase } from "@/lib/db";
import { freePort } from "@/lib/testing/ports";
import { startProductionServer } from "@/lib/testing/production-server";
import { type CpuSnapshot, cpuSnapshot, cpuSplit } from "./machine-cpu";
import { machineSpeedMs } from "./machine-speed";
import { statementWindows } from "./pg-statements";
import { createCaseDatabase, memoryOf, startWorkerProcesses } from "./postgres-workers";
import { percentile, roundedMean } from "./percentile";
import { apiCall as api, probeLatency } from "./through-the-api";
import { benchCases, type Case, firstCallLine, ratioBound, startDelayedOrigin, turnaroundLine } from "./tenant-cases";

/**
 * Many tenants at once, as people run Preheat (issue 28): the production server (`next start`, its
 * embedded worker, the database on disk under PREHEAT_DATA_DIR) or, with DATABASE_URL, the server
 * without a worker plus BENCH_WORKERS `npm run worker` processes on that PostgreSQL server. Sites
 * are created and validated through /v1 (the origin serves their token files); then 20 clients send
 * one `POST /v1/sites/{id}/warm` per site as fast as they are accepted, while the first warms
 * already run. The origin, in its own process, answers every page after a fixed delay.
 *
 * Printed per case: the intake (time to accept every warm, and warms accepted per second), the time
 * from the first warm request to the last call answered, calls in flight (peak, and the average over
 * that time), the ratio of the calls' rate over that time to the ideal (sites × C ÷ delay) and the most
 * it could be with that intake (lib/bench/tenant-cases.ts, ratioBound), the peak
 * per site against C, how long after its warm was accepted each site saw its first call (and its
 * mean for each tenth of the warms, in the order accepted), the
 * turnaround, the latency of `GET /v1/runs/{id}` meanwhile, where the machine's CPU went (each
 * process's, the rest, idle: during the intake, then to the last call) and each process's peak RSS.
 *
 * BENCH_CASES: "sites×urls×concurrency×delayMs" list (default 200x100x4x200,1000x20x2x500).
 * BENCH_INTAKE_ONLY=1: the embedded server without its worker, so that the intake is measured alone (no call is made).
 * BENCH_TENANTS_PROFILE=<dir>: the V8 CPU profiles (.cpuprofile) of the server and of each worker are written there when they stop.
 * BENCH_PG_STATEMENTS=1 (PostgreSQL variant): PostgreSQL's statements that took the most time, during the intake and after it.
 */
const CASES = benchCases();
const MAX_SECONDS = Number(process.env.BENCH_MAX_SECONDS ?? 180);
const SERVER_URL = process.env.DATABASE_URL;
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const CLIENTS = 20;
const PROFILE_DIR = process.env.BENCH_TENANTS_PROFILE;
const INTAKE_ONLY = Boolean(process.env.BENCH_INTAKE_ONLY);
const SITES_PER_ACCOUNT = 10;
/** How often the latency line asks for a run while the warms arrive and run. */
const PROBE_EVERY_MS = 100;
const mib = (bytes: number) => Math.round(bytes / 1048576);

/** One API key per account of SITES_PER_ACCOUNT sites, written before the server opens the database. */
async function seedKeys(c: Case, target: { dataDir?: string }): Promise<string[]> {
  const handle = await openDatabase(target);
  const keys: string[] = [];
  for (let a = 0; a < Math.ceil(c.sites / SITES_PER_ACCOUNT); a++) {
    const { user } = await findOrCreateUser(handle.db, `tenant-${a}@bench.test`);
    keys.push((await createApiKey(handle.db, { accountId: user.accountId, name: "bench", scopes: [...SCOPES] })).key);
  }
  await handle.close();
  return keys;
}

/** Runs `work` over the items with `clients` of them at once, as fast as each answer comes. */
async function inParallel<T>(items: readonly T[], clients: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

async function measure(c: Case) {
  const origin = await startDelayedOrigin(c.delayMs);
  const database = SERVER_URL ? await createCaseDatabase(SERVER_URL, `bench_tenants_${process.pid}`) : undefined;
  const dataDir = database ? undefined : mkdtempSync(path.join(os.tmpdir(), "preheat-bench-tenants-"));
  if (database) process.env.DATABASE_URL = database.url;
  const keys = await seedKeys(c, { dataDir });
  const env = {
    ...(database ? { DATABASE_URL: database.url, PREHEAT_EMBEDDED_WORKER: "false" } : { PREHEAT_DATA_DIR: dataDir! }),
    // HTTPS too: validation tries it first, and a name this machine cannot resolve would wait for DNS
    // to time out (about 5 s a site); the origin speaks plain HTTP, so the HTTPS attempt fails at once.
    PREHEAT_CONNECT_TO: `:80:127.0.0.1:${origin.port},:443:127.0.0.1:${origin.port}`,
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
    PREHEAT_RATE_LIMIT_PER_MINUTE: "1000000000",
    PREHEAT_MONTHLY_CALL_QUOTA: "1000000000",
    PREHEAT_SITE_CONCURRENCY: String(c.concurrency),
    PREHEAT_SITE_MAX_CONCURRENCY: String(Math.max(16, c.concurrency)),
    ...(INTAKE_ONLY ? { PREHEAT_EMBEDDED_WORKER: "false" } : {}),
  };
  const profiling = PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(PROFILE_DIR)}`] : [];
  const server = await startProductionServer(await freePort(), env, { nodeArgs: profiling });
  const workers = database ? await startWorkerProcesses(WORKERS, { ...process.env, ...env }, profiling) : undefined;
  let statements: Awaited<ReturnType<typeof statementWindows>> | undefined;
  try {
    const hosts = Array.from({ length: c.sites }, (_, s) => ({ host: `site-${s}.bench.test`, key: keys[Math.floor(s / SITES_PER_ACCOUNT)]! }));
    const created: { id: number; key: string; host: string }[] = [];
    const setupStarted = performance.now();
    await inParallel(hosts, CLIENTS, async ({ host, key }) => {
      const site = await api(server.baseUrl, key, "POST", "/v1/sites", { domain: host });
      origin.tokens({ [host]: site.validation_token });
      await api(server.baseUrl, key, "POST", `/v1/sites/${site.id}/validate`);
      created.push({ id: site.id, key, host });
    });
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    // Calls in flight at the origin, sampled while the warms arrive and run.
    const inFlight: number[] = [];
    const sampler = setInterval(async () => inFlight.push((await origin.stats()).inFlight), 250);
    const processes = { server: server.pid, origin: origin.pid, "the clients": process.pid, ...(workers ? { workers: workers.pids } : {}) };
    statements = await statementWindows(database?.url);
    // Before the warms, the machine quiet: its speed now, for comparing this case with other runs.
    const speedMs = machineSpeedMs();
    const machineAtStart = cpuSnapshot(processes);
    const started = Date.now();
    let probe: ReturnType<typeof probeLatency> | undefined;
    const acceptedAt = new Map<string, number>();
    await inParallel(created, CLIENTS, async ({ id, key, host }) => {
      const warm = await api(server.baseUrl, key, "POST", `/v1/sites/${id}/warm`, { urls: Array.from({ length: c.urls }, (_, i) => `http://${host}/p/${i}`), region: ["fr"] });
      acceptedAt.set(host, Date.now());
      probe ??= probeLatency(`${server.baseUrl}/v1/runs/${warm.run_id}`, key, PROBE_EVERY_MS);
    });
    const intakeSeconds = (Date.now() - started) / 1000;
    const machineAfterIntake = cpuSnapshot(processes);
    await statements.print("during the intake");
    // The server's own CPU: what a warm costs it, whatever else the machine runs meanwhile.
    const serverSeconds = (from: CpuSnapshot, to: CpuSnapshot) => (to.processes.get("server") ?? 0) - (from.processes.get("server") ?? 0);
    const intakeCpu = serverSeconds(machineAtStart, machineAfterIntake);
    const total = c.sites * c.urls;
    let stats = await origin.stats();
    while (!INTAKE_ONLY && stats.served < total && (Date.now() - started) / 1000 < MAX_SECONDS) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      stats = await origin.stats();
    }
    clearInterval(sampler);
    const machineAtEnd = cpuSnapshot(processes);
    await statements.print("from then to the last call");
    const latencies = (await probe?.stop()) ?? [];
    const probed = `  GET /v1/runs/{id} meanwhile (a fresh connection every ${PROBE_EVERY_MS} ms, ${latencies.length} requests): p50 ${Math.round(percentile(latencies, 50))} ms, p99 ${Math.round(percentile(latencies, 99))} ms, max ${Math.round(percentile(latencies, 100))} ms`;
    const intake = `  intake: ${c.sites} warms accepted in ${intakeSeconds.toFixed(1)} s by ${CLIENTS} clients (${Math.round(c.sites / intakeSeconds)} a second); server CPU meanwhile ${intakeCpu.toFixed(1)} s, ${((intakeCpu * 1000) / c.sites).toFixed(1)} ms a warm`;
    if (INTAKE_ONLY) {
      console.log(`${c.sites} sites × ${c.urls} URLs, the intake alone (no worker, no call)`);
      console.log(`${intake}\n  the machine's CPU during the intake: ${cpuSplit(machineAtStart, machineAfterIntake)}\n${probed}`);
      return;
    }
    const seconds = (stats.lastAt - started) / 1000;
    const rate = stats.served / seconds;
    const ideal = (c.sites * c.concurrency) / (c.delayMs / 1000);
    const cut = stats.served < total ? ` (stopped after ${MAX_SECONDS} s)` : "";
    console.log(
      `${c.sites} sites × ${c.urls} URLs, concurrency ${c.concurrency}, origin delay ${c.delayMs} ms: ${stats.served.toLocaleString("en")} of ${total.toLocaleString("en")} calls${cut}; ${c.sites} sites created and validated through /v1 in ${setupSeconds.toFixed(1)} s`,
    );
    console.log(`  the machine's speed before the warms: a fixed workload's fastest round took ${speedMs.toFixed(2)} ms (lib/bench/machine-speed.ts; lower is faster)`);
    console.log(intake);
    console.log(
      `  ${seconds.toFixed(1)} s from the first warm request to the last call answered: ${Math.round(rate).toLocaleString("en")} calls/s, ideal ${Math.round(ideal).toLocaleString("en")} (N × C / delay): ratio ${(rate / ideal).toFixed(2)}`,
    );
    const { bound, siteSeconds } = ratioBound(c, intakeSeconds);
    console.log(
      `  at most ${bound.toFixed(2)} with this intake: the last warm was accepted ${intakeSeconds.toFixed(1)} s in, and its site's ${c.urls} calls take ${siteSeconds.toFixed(1)} s at C ${c.concurrency}`,
    );
    console.log(
      `  calls in flight: peak ${stats.peak}, average ${roundedMean(inFlight)} (ideal ${c.sites * c.concurrency}); peak per site ${stats.peakPerSite} (limit ${c.concurrency}${stats.peakPerSite > c.concurrency ? ": EXCEEDED" : ""})`,
    );
    console.log(firstCallLine(acceptedAt, await origin.firstCalls()));
    console.log(turnaroundLine(stats));
    console.log(probed);
    const cpu = serverSeconds(machineAtStart, machineAtEnd);
    console.log(`  server CPU from the first warm to the last call: ${cpu.toFixed(1)} s, ${((cpu * 1e6) / stats.served).toFixed(0)} µs a call (warm requests included)`);
    console.log(`  the machine's CPU in seconds, during the intake: ${cpuSplit(machineAtStart, machineAfterIntake)}; from then to the last call: ${cpuSplit(machineAfterIntake, machineAtEnd)}`);
    const peak = (pid: number) => `${mib(memoryOf(pid)?.hwm ?? 0)} MiB`;
    console.log(`  peak RSS: server ${peak(server.pid)}, origin ${peak(origin.pid)}${workers ? `; ${workers.rss()}` : ""}`);
  } finally {
    await statements?.close();
    await workers?.stop();
    await server.stop();
    origin.stop();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const how = SERVER_URL
    ? `the production server (no worker) and ${WORKERS} npm run worker processes on a PostgreSQL server at ${new URL(SERVER_URL).host}`
    : "the production server (npm start: embedded worker, PGlite on disk)";
  console.log(`machine: ${os.cpus().length} cores, Node ${process.version}; ${how}; origin in its own process; through /v1`);
  for (const c of CASES) await measure(c);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
