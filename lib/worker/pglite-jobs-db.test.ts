import { PGlite } from "@electric-sql/pglite";
import PgBoss from "pg-boss";
import { afterAll, describe, expect, it } from "vitest";
import { reuseStatements } from "@/lib/db/pglite-statements";
import { pgliteJobsDb } from "./pglite-jobs-db";

/** PGlite whose fetches of jobs wait for `release` while held: a fetch under way when the jobs stop. */
function heldFetches(pglite: PGlite) {
  let held: Promise<void> | undefined;
  let release = () => {};
  let fetchUnderWay = () => {};
  const fetching = new Promise<void>((resolve) => {
    fetchUnderWay = resolve;
  });
  const db = {
    exec: (text: string) => pglite.exec(text),
    async query(text: string, values?: unknown[]) {
      if (held && text.includes("FOR UPDATE SKIP LOCKED")) {
        const result = await pglite.query(text, values);
        fetchUnderWay();
        await held;
        return result;
      }
      return pglite.query(text, values);
    },
  } as unknown as PGlite;
  return {
    db,
    fetching,
    hold() {
      held = new Promise((resolve) => {
        release = resolve;
      });
    },
    release: () => release(),
  };
}

const pglite = new PGlite();
afterAll(() => pglite.close());

describe("pg-boss on the embedded database, stopping", () => {
  it("hands a job fetched while the jobs stop to its handler, and completes it, before it lets the database close", async () => {
    const fetches = heldFetches(pglite);
    const jobsDb = pgliteJobsDb(fetches.db);
    const boss = new PgBoss({ db: jobsDb, schema: "pgboss", supervise: false, schedule: false });
    await boss.start();
    await boss.createQueue("q");
    await boss.send("q", { n: 1 });
    const handled: string[] = [];
    fetches.hold();
    await boss.work("q", { pollingIntervalSeconds: 0.5 }, ([job]) =>
      jobsDb.handling(
        (async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          const { rows } = await pglite.query<{ one: number }>("select 1 as one");
          handled.push(`${job!.id}:${rows[0]!.one}`);
        })(),
      ),
    );
    await fetches.fetching;

    let closed = false;
    const stopping = (async () => {
      await boss.stop({ graceful: true, wait: true, timeout: 15_000, close: false });
      await jobsDb.close();
      closed = true;
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    fetches.release();
    await stopping;

    expect(handled).toHaveLength(1);
    const { rows } = await pglite.query<{ state: string }>("select state from pgboss.job where name = 'q'");
    expect(rows).toEqual([{ state: "completed" }]);
  }, 30_000);
});

describe("pg-boss on the embedded database, fetching", () => {
  it("fetches each queue's own jobs, through a plan kept for that queue (an idle poll is not planned anew)", async () => {
    const db = new PGlite();
    reuseStatements(db);
    const boss = new PgBoss({ db: pgliteJobsDb(db), schema: "pgboss", supervise: false, schedule: false });
    try {
      await boss.start();
      for (const queue of ["a", "b", "it's"]) {
        await boss.createQueue(queue);
        await boss.send(queue, { queue });
      }
      for (let poll = 0; poll < 10; poll++) expect(await boss.fetch("a", { batchSize: poll ? 5 : 1 })).toHaveLength(poll ? 0 : 1);
      expect((await boss.fetch<{ queue: string }>("it's", { batchSize: 5 }))?.map((job) => job.data.queue)).toEqual(["it's"]);
      expect((await boss.fetch<{ queue: string }>("b", { batchSize: 5, includeMetadata: true }))?.map((job) => job.data.queue)).toEqual(["b"]);

      const { rows } = await db.query<{ generic_plans: number }>("select generic_plans from pg_prepared_statements where statement like '%SKIP LOCKED%' and statement like '%name = ''a''%'");
      expect(rows.length).toBeGreaterThan(0);
      expect(Math.max(...rows.map((row) => row.generic_plans))).toBeGreaterThan(0);
    } finally {
      await boss.stop({ graceful: false, close: false });
      await db.close();
    }
  }, 30_000);
});
