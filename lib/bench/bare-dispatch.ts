import { Pool } from "undici";

/** A loop's rate and the process's CPU a call, over the counted span. */
export type LoopRate = { rate: number; cpuMicrosPerRequest: number };

/**
 * `concurrency` loops, each starting its next call (`send`, which calls `done` when the answer has
 * ended) as soon as its last one ended: calls a second over `seconds`, after a half-second warm-up
 * that is not counted, and the process's CPU a call over the same span (µs).
 */
export async function callLoopRate(send: (done: (error?: unknown) => void) => void, concurrency: number, seconds: number): Promise<LoopRate> {
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
        send((error) => {
          if (error) return reject(error);
          if (now >= warmUntil) counted++;
          next();
        });
      };
      next();
    });
  await Promise.all(Array.from({ length: concurrency }, loop));
  const cpu = process.cpuUsage(cpuAtWarm);
  return { rate: counted / seconds, cpuMicrosPerRequest: (cpu.user + cpu.system) / Math.max(1, counted) };
}

/**
 * The physical reference for a warming call on this stack (issue 28): undici's `dispatch` on a pool
 * of `concurrency` connections, each connection sending its next GET with the given headers as soon
 * as the last answer ends, the body read and dropped. No guard, no parsing, no recording: what Node
 * and undici alone cost per call.
 */
export async function bareDispatchRate(origin: string, path: string, headers: Record<string, string>, concurrency: number, seconds: number): Promise<LoopRate> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  try {
    return await callLoopRate(
      (done) =>
        pool.dispatch(
          { origin, method: "GET", path, headers },
          {
            onRequestStart() {},
            onResponseStart() {},
            onResponseData() {},
            onResponseEnd: () => done(),
            onResponseError: (_controller, error) => done(error),
          },
        ),
      concurrency,
      seconds,
    );
  } finally {
    await pool.close();
  }
}
