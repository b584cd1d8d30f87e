import type { PGlite } from "@electric-sql/pglite";
import type PgBoss from "pg-boss";

export type PgliteJobsDb = PgBoss.Db & {
  /** Runs a job's handler so that `close` waits for it, and for the job's completion after it. */
  handling: <T>(work: Promise<T>) => Promise<T>;
  close: (timeoutMs?: number) => Promise<void>;
};

const turnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** pg-boss's fetch of a queue's next jobs: `WHERE name = $1` on its job table, partitioned by queue name. */
const QUEUE_FETCH = /WHERE name = \$1\b[\s\S]*FOR UPDATE SKIP LOCKED/;

/**
 * The fetch with its queue's name written into the text, the other parameters renumbered: one
 * prepared statement per queue (lib/db/pglite-statements.ts), planned for that queue's partition only.
 * With the name as a parameter, PostgreSQL found a plan for every partition dearer than a fresh plan
 * for one, and planned each fetch anew: 0.55 against 0.15 ms a fetch of an empty queue, and an idle
 * server polls about 17 queues a second (docs/benchmarks.md).
 */
function withQueueNameInText(text: string, values: unknown[]): { text: string; values: unknown[] } {
  const [queue, ...rest] = values;
  if (typeof queue !== "string" || !QUEUE_FETCH.test(text)) return { text, values };
  const literal = `'${queue.replaceAll("'", "''")}'`;
  return { text: text.replace(/\$(\d+)(?!\d)/g, (_, n: string) => (n === "1" ? literal : `$${Number(n) - 1}`)), values: rest };
}

/**
 * pg-boss on the embedded database. It sends parameterless (possibly multi-statement) SQL through
 * exec(), the rest through query().
 *
 * pg-boss completes or fails a job without awaiting it, and a fetch under way while it stops still
 * hands its jobs to their handler a few microtasks after its statement ends: `close` waits until a
 * turn of the event loop passes with no statement and no handler under way, so that none reaches the
 * database closed under it (an unhandled rejection). A statement after `close` changes nothing: the
 * job it would have completed stays active and is retried after its expiry, which every handler allows.
 */
export function pgliteJobsDb(pglite: PGlite): PgliteJobsDb {
  const underWay = new Set<Promise<unknown>>();
  let closed = false;
  const track = <T>(work: Promise<T>): Promise<T> => {
    underWay.add(work);
    const done = () => underWay.delete(work);
    void work.then(done, done);
    return work;
  };
  const execute = async (text: string, values?: unknown[]) => {
    if (!values?.length) {
      const results = await pglite.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    }
    const statement = withQueueNameInText(text, values);
    const result = await pglite.query(statement.text, statement.values);
    return { rows: result.rows };
  };
  return {
    executeSql(text, values) {
      if (closed) {
        console.warn("[jobs] a job statement after the jobs stopped was dropped; its job is retried after its expiry");
        return Promise.resolve({ rows: [] });
      }
      return track(execute(text, values));
    },
    handling: track,
    async close(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await turnOfTheLoop();
        const left = deadline - Date.now();
        if (!underWay.size || left <= 0) break;
        await Promise.race([Promise.allSettled([...underWay]), new Promise((resolve) => setTimeout(resolve, left).unref())]);
      }
      closed = true;
    },
  };
}
