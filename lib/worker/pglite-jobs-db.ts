import type { PGlite } from "@electric-sql/pglite";
import type PgBoss from "pg-boss";

export type PgliteJobsDb = PgBoss.Db & {
  /** Runs a job's handler so that `close` waits for it, and for the job's completion after it. */
  handling: <T>(work: Promise<T>) => Promise<T>;
  close: (timeoutMs?: number) => Promise<void>;
};

const turnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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
    const result = await pglite.query(text, values);
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
