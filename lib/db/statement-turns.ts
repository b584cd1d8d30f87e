import { AsyncLocalStorage } from "node:async_hooks";
import type { PGlite } from "@electric-sql/pglite";

/** When both wait, the background gets one turn after this many requests' turns in a row: it is slowed, never stopped. */
const FOREGROUND_TURNS_IN_A_ROW = 4;

type Global = typeof globalThis & { __preheatForeground?: AsyncLocalStorage<true> };

/** On globalThis: Next.js bundles this module once per route, and every route must mark the same store. */
function foreground(): AsyncLocalStorage<true> {
  const g = globalThis as Global;
  g.__preheatForeground ??= new AsyncLocalStorage();
  return g.__preheatForeground;
}

/**
 * Runs `work` as something a person or a client is waiting for (an API request, a dashboard call):
 * on the embedded database, its statements go before the background's (planning, warming, jobs).
 */
export function inForeground<T>(work: () => Promise<T>): Promise<T> {
  return foreground().run(true, work);
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
 *   to 325–327 ms (docs/benchmarks.md, issue 28; the thread's CPU, not this line, bounds the intake).
 * A transaction starts in its turn and holds PGlite's own lock to its end, as before.
 */
export function takeStatementTurns(pglite: PGlite): void {
  const waiting = { foreground: [] as (() => void)[], background: [] as (() => void)[] };
  let foregroundInARow = 0;

  /** Starts the statement whose turn it is: the foreground's first, but never more than FOREGROUND_TURNS_IN_A_ROW of them in a row. */
  const next = () => {
    const backgroundsTurn = waiting.background.length > 0 && (waiting.foreground.length === 0 || foregroundInARow >= FOREGROUND_TURNS_IN_A_ROW);
    const start = backgroundsTurn ? waiting.background.shift() : waiting.foreground.shift();
    if (!start) return;
    foregroundInARow = backgroundsTurn ? 0 : foregroundInARow + 1;
    start();
  };
  // Every statement adds one turn of the event loop (a setImmediate); each turn starts whichever
  // statement waits first in line, not necessarily the one that asked for it. A statement runs to its
  // end within its turn (PGlite is synchronous), so the turns of one loop iteration run one after the
  // other, with I/O between iterations.
  const turn = () =>
    new Promise<void>((resolve) => {
      (foreground().getStore() ? waiting.foreground : waiting.background).push(resolve);
      setImmediate(next);
    });
  const inTurn =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await turn();
      return run(...args);
    };

  pglite.query = inTurn(pglite.query.bind(pglite)) as PGlite["query"];
  pglite.transaction = inTurn(pglite.transaction.bind(pglite)) as PGlite["transaction"];
}
