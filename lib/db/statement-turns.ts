import { AsyncLocalStorage } from "node:async_hooks";
import type { PGlite } from "@electric-sql/pglite";

/** A lane that waits gets a turn once this many turns in a row went to lanes before it: it is slowed, never stopped. */
const TURNS_PASSED_OVER = 4;

/**
 * The background's statements start within one iteration of the event loop until this long has
 * passed since its first; the others wait for the next iteration, after I/O. Each statement is a
 * turn of its own (a setImmediate), but the turns queued before an iteration all ran in it, one after
 * the other: with a thousand runs warming, iterations of 30 to 50 ms of statements, during which no
 * request was read or answered (docs/benchmarks.md). Requests' statements are not held: slicing
 * them too cost a tenth of the API's throughput at saturation.
 */
const ITERATION_SLICE_MS = 10;

/**
 * Who waits for a statement, in the order they go: a request that only reads (a dashboard or a script
 * polling a run), a request that writes (a warm, a site), then the background (planning, warming, jobs).
 */
export type Lane = "read" | "write" | "background";
const LANES: readonly Lane[] = ["read", "write", "background"];

type Global = typeof globalThis & { __preheatForeground?: AsyncLocalStorage<Lane> };

/** On globalThis: Next.js bundles this module once per route, and every route must mark the same store. */
function foreground(): AsyncLocalStorage<Lane> {
  const g = globalThis as Global;
  g.__preheatForeground ??= new AsyncLocalStorage();
  return g.__preheatForeground;
}

/**
 * Runs `work` as something a person or a client is waiting for (an API request, a dashboard call):
 * on the embedded database, its statements go before the background's (planning, warming, jobs), and
 * a request that only reads goes before those that write.
 */
export function inForeground<T>(work: () => Promise<T>, lane: Exclude<Lane, "background"> = "write"): Promise<T> {
  return foreground().run(lane, work);
}

/**
 * The embedded database runs one statement at a time on the process's only thread, which also
 * answers the API and warms. Two things follow, and both are decided here, before PGlite's own lock:
 * - a turn of the event loop before each statement, so that I/O gets in between: PGlite hands its
 *   lock to the next statement in a microtask, and with many statements waiting they ran back to
 *   back in one microtask drain while no request was read or answered (GET /v1/runs sustained, 133
 *   to 226 requests/s, docs/benchmarks.md);
 * - statements of the foreground (`inForeground`) go first, so that a request is not queued behind
 *   the engine's statements: with 1,000 runs warming, GET /v1/runs/{id} p99 went from 454–1,231 ms
 *   to 325–327 ms (docs/benchmarks.md, issue 28; the thread's CPU, not this line, bounds the intake);
 *   and reads before writes, so that polling a run does not queue behind twenty warms arriving; a
 *   read that finds no statement under way and no read waiting starts at once, without a turn;
 * - the warm loop's reservations, the one statement between a site's free slot and its next call,
 *   go with the writes (lib/runs/warm-loop.ts);
 * - an iteration of the loop starts the background's statements for ITERATION_SLICE_MS at most, then I/O gets in.
 * A transaction starts in its turn and holds PGlite's own lock to its end, as before.
 */
export function takeStatementTurns(pglite: PGlite): void {
  const waiting: Record<Lane, (() => void)[]> = { read: [], write: [], background: [] };
  const passedOver: Record<Lane, number> = { read: 0, write: 0, background: 0 };

  // When the current iteration's first statement started (ITERATION_SLICE_MS); undefined before it.
  let sliceStart: number | undefined;
  /**
   * Starts the statement whose turn it is: the first lane's in LANES order that has one waiting,
   * unless a later lane was passed over TURNS_PASSED_OVER times in a row (the longest passed over goes then).
   */
  const next = () => {
    const ready = LANES.filter((lane) => waiting[lane].length > 0);
    if (!ready.length) return;
    const starved = ready.filter((lane) => passedOver[lane] >= TURNS_PASSED_OVER).sort((a, b) => passedOver[b] - passedOver[a]);
    const lane = starved[0] ?? ready[0]!;
    const now = performance.now();
    if (sliceStart === undefined) {
      sliceStart = now;
      // Queued now, it runs first among the next iteration's turns: a new slice starts there.
      setImmediate(() => {
        sliceStart = undefined;
      });
    } else if (lane === "background" && now - sliceStart >= ITERATION_SLICE_MS) {
      setImmediate(next);
      return;
    }
    for (const other of ready) passedOver[other] = other === lane ? 0 : passedOver[other] + 1;
    waiting[lane].shift()!();
  };
  // Every statement adds one turn of the event loop (a setImmediate); each turn starts whichever
  // statement waits first in line, not necessarily the one that asked for it. A statement runs to its
  // end within its turn (PGlite is synchronous), so the turns of one loop iteration run one after the
  // other, with I/O between iterations, for ITERATION_SLICE_MS at most (then they move on to the next).
  const turn = (lane: Lane) =>
    new Promise<void>((resolve) => {
      waiting[lane].push(resolve);
      setImmediate(next);
    });
  // Statements started and not ended (a transaction until its end).
  let underWay = 0;
  const inTurn =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const lane = foreground().getStore() ?? "background";
      // A read that finds the database idle and no read ahead of it starts at once: waiting for its
      // turn, it waited for every callback of the loop's poll phase before the check phase, once per
      // statement (GET /v1/runs/{id} p50 13 to 24 ms while 200 sites warmed, 7 to 13 ms without the
      // wait, docs/benchmarks.md). Nothing is running then, and reads go first anyway.
      const startsAtOnce = lane === "read" && underWay === 0 && !waiting.read.length;
      if (!startsAtOnce) await turn(lane);
      underWay++;
      try {
        return await run(...args);
      } finally {
        underWay--;
      }
    };

  pglite.query = inTurn(pglite.query.bind(pglite)) as PGlite["query"];
  pglite.transaction = inTurn(pglite.transaction.bind(pglite)) as PGlite["transaction"];
}
