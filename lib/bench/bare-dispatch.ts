import { Pool } from "undici";

/**
 * The physical reference for a warming call on this stack (issue 28): undici's `dispatch` on a pool
 * of `concurrency` connections, each connection sending its next GET as soon as the last answer
 * ends, with the given headers, the body read and dropped. No guard, no parsing, no recording:
 * what Node and undici alone cost per call. Requests a second over `seconds`, after a half-second
 * warm-up that is not counted, and the process's CPU a request over the same span (µs).
 */
export async function bareDispatchRate(origin: string, path: string, headers: Record<string, string>, concurrency: number, seconds: number): Promise<{ rate: number; cpuMicrosPerRequest: number }> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const warmUntil = performance.now() + 500;
  const until = warmUntil + seconds * 1000;
  let counted = 0;
  let cpuAtWarm: NodeJS.CpuUsage | undefined;
  const loop = () =>
    new Promise<void>((resolve, reject) => {
      const next = () => {
        const now = performance.now();
        if (now >= until) return resolve();
        if (now >= warmUntil) cpuAtWarm ??= process.cpuUsage();
        pool.dispatch(
          { origin, method: "GET", path, headers },
          {
            onRequestStart() {},
            onResponseStart() {},
            onResponseData() {},
            onResponseEnd() {
              if (now >= warmUntil) counted++;
              next();
            },
            onResponseError(_controller, error) {
              reject(error);
            },
          },
        );
      };
      next();
    });
  let cpu: NodeJS.CpuUsage;
  try {
    await Promise.all(Array.from({ length: concurrency }, loop));
    cpu = process.cpuUsage(cpuAtWarm);
  } finally {
    await pool.close();
  }
  return { rate: counted / seconds, cpuMicrosPerRequest: (cpu.user + cpu.system) / Math.max(1, counted) };
}
