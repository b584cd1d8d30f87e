import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

/**
 * The multisite bench on a PostgreSQL server: a database of its own per case, and worker
 * processes started as `npm run worker` starts them (`node --import tsx lib/worker/main.ts`).
 */

const root = path.resolve(import.meta.dirname, "../..");
const mib = (bytes: number) => Math.round(bytes / 1048576);

/** Creates an empty database on the server of `serverUrl` (the role needs CREATEDB); `drop()` removes it. */
export async function createCaseDatabase(serverUrl: string, name: string) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } catch (error) {
    await admin.end();
    throw new Error(`could not create database ${name} on ${new URL(serverUrl).host} (does the role have CREATEDB?): ${(error as Error).message}`);
  }
  const [{ max_connections }] = (await admin`show max_connections`) as unknown as [{ max_connections: string }];
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    maxConnections: Number(max_connections),
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** VmRSS and VmHWM (the peak so far) of a process, in bytes; undefined once it is gone. */
export function memoryOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kib("VmRSS"), hwm: kib("VmHWM") };
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far; undefined once it is gone. */
export function cpuSecondsOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ, 100 on Linux)
  } catch {
    return undefined;
  }
}

type Worker = { child: ChildProcess; idle: number; peak: number; readyCpu: number; cpu: number; nice: number };

/** Workers left running when the bench ends (an error, a run cut short) are killed with it. */
const started = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of started) if (child.exitCode === null && !child.signalCode) child.kill("SIGKILL");
});

/** Starts `count` workers with `env` and waits until each works the queue (its "[worker] working" line). */
export async function startWorkerProcesses(count: number, env: NodeJS.ProcessEnv, nodeArgs: string[] = []) {
  let stopping = false;
  const spawnedAt = performance.now();
  const workers: Worker[] = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "lib/worker/main.ts"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
      started.add(child);
      const prefix = `[bench worker ${i + 1}, pid ${child.pid}]`;
      child.stderr!.on("data", (chunk: Buffer) => process.stderr.write(chunk.toString().replace(/^(?=.)/gm, `${prefix} `)));
      child.on("exit", (code, signal) => stopping || console.error(`${prefix} exited before the end: ${signal ?? `code ${code}`}`));
      await new Promise<void>((resolve, reject) => {
        let out = "";
        const onData = (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("[worker] working the job queue")) {
            child.stdout!.off("data", onData);
            child.stdout!.resume(); // what it prints later is not read
            resolve();
          }
        };
        child.stdout!.on("data", onData);
        child.once("exit", () => reject(new Error(`${prefix} did not start`)));
        setTimeout(() => reject(new Error(`${prefix} not working the queue after 60 s`)), 60_000).unref();
      });
      const idle = memoryOf(child.pid!)?.rss ?? NaN;
      const readyCpu = cpuSecondsOf(child.pid!) ?? 0;
      // PREHEAT_WORKER_NICE: the priority it lowered itself to, which decides its share of a busy machine.
      return { child, idle, peak: idle, readyCpu, cpu: readyCpu, nice: os.getPriority(child.pid!) };
    }),
  );
  const sample = () => {
    for (const w of workers) {
      w.peak = Math.max(w.peak, memoryOf(w.child.pid!)?.hwm ?? 0);
      w.cpu = cpuSecondsOf(w.child.pid!) ?? w.cpu;
    }
  };
  const readySeconds = (performance.now() - spawnedAt) / 1000;
  const sampler = setInterval(sample, 100);
  return {
    readySeconds,
    pids: workers.map((w) => w.child.pid!),
    /**
     * "worker RSS (ready → peak) #1 190 → 260 MiB (3.1 s CPU), …; largest growth +70 MiB": the first
     * figure is the RSS when the worker reported ready (its first runs may already have started); the
     * CPU time is what it used from then on, which shows how the runs were shared.
     */
    rss: () =>
      `worker RSS (ready → peak) ${workers.map((w, i) => `#${i + 1} ${mib(w.idle)} → ${mib(w.peak)} MiB (${(w.cpu - w.readyCpu).toFixed(1)} s CPU, nice ${w.nice})`).join(", ")}; largest growth +${Math.max(...workers.map((w) => mib(w.peak - w.idle)))} MiB`,
    /** SIGTERM (the worker hands its runs over and closes), SIGKILL after `timeoutMs`. */
    stop: async (timeoutMs = 35_000) => {
      sample();
      clearInterval(sampler);
      stopping = true;
      await Promise.all(
        workers.map(async ({ child }, i) => {
          if (child.exitCode !== null || child.signalCode) return;
          const exited = new Promise((resolve) => child.once("exit", resolve));
          child.kill("SIGTERM");
          const timer = setTimeout(() => {
            console.error(`[bench worker ${i + 1}, pid ${child.pid}] still running ${timeoutMs / 1000} s after SIGTERM: SIGKILL`);
            child.kill("SIGKILL");
          }, timeoutMs);
          await exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}
