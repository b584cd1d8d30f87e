import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inForeground, type Lane, takeStatementTurns } from "./statement-turns";

let pglite: PGlite;

beforeAll(async () => {
  pglite = await PGlite.create();
  takeStatementTurns(pglite);
}, 60_000);

afterAll(async () => {
  await pglite.close();
});

/** Starts `count` statements of one kind at once; each pushes its label into `order` when it ends. */
function start(count: number, label: string, order: string[], lane: Lane = "background"): Promise<unknown>[] {
  const one = () => pglite.query("select pg_sleep(0.002)").then(() => void order.push(label));
  return Array.from({ length: count }, () => (lane === "background" ? one() : inForeground(one, lane)));
}

describe("statement turns on the embedded database", () => {
  it("lets I/O in between statements queued together: an iteration of the event loop runs about 10 ms of them", async () => {
    const order: string[] = [];
    const statements = start(40, "background", order);
    // A timer fires once the iteration's statements end: after the first slice, not after all 40 (80 ms).
    const doneWhenTimerFired = await new Promise<number>((resolve) => setTimeout(() => resolve(order.length), 1));
    await Promise.all(statements);
    expect(doneWhenTimerFired).toBeGreaterThan(0);
    expect(doneWhenTimerFired).toBeLessThan(15);
  });

  it("runs a request's statement before the background's queued ahead of it", async () => {
    const order: string[] = [];
    const background = start(40, "background", order);
    const request = start(1, "request", order, "write");
    await Promise.all([...background, ...request]);
    // At most the statement already running and a few the background got in turn go first.
    expect(order.indexOf("request")).toBeLessThan(3);
  });

  it("never stops the background while requests keep coming: one turn in five is its own", async () => {
    const order: string[] = [];
    const background = start(10, "background", order);
    const requests = start(40, "request", order, "write");
    await Promise.all([...background, ...requests]);
    const firstTwenty = order.slice(0, 20);
    expect(firstTwenty.filter((label) => label === "background").length).toBeGreaterThanOrEqual(3);
  });

  it("runs a request that reads before the writing requests queued ahead of it, and writes still get turns", async () => {
    const order: string[] = [];
    const writes = start(40, "write", order, "write");
    const background = start(10, "background", order);
    const read = start(1, "read", order, "read");
    const reads = start(40, "reads", order, "read");
    await Promise.all([...writes, ...background, ...read, ...reads]);
    expect(order.indexOf("read")).toBeLessThan(3);
    const firstTwenty = order.slice(0, 20);
    expect(firstTwenty.filter((label) => label === "write").length).toBeGreaterThanOrEqual(3);
    expect(firstTwenty.filter((label) => label === "background").length).toBeGreaterThanOrEqual(3);
  });

  it("keeps a transaction whole: nothing else runs between its statements", async () => {
    const order: string[] = [];
    const transaction = pglite.transaction(async (tx) => {
      await tx.query("select 1");
      order.push("transaction: first");
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.query("select 2");
      order.push("transaction: last");
    });
    const others = [...start(3, "background", order), ...start(3, "request", order, "write")];
    await Promise.all([transaction, ...others]);
    const first = order.indexOf("transaction: first");
    expect(order[first + 1]).toBe("transaction: last");
  });

  it("starts a read at once when the database is idle, without waiting for the loop's next turn; a write waits for it", async () => {
    const ranBefore = async (lane: Exclude<Lane, "background">) => {
      let turnPassed = false;
      setImmediate(() => {
        turnPassed = true;
      });
      await inForeground(() => pglite.query("select 1"), lane);
      return turnPassed;
    };
    expect(await ranBefore("read")).toBe(false);
    expect(await ranBefore("write")).toBe(true);
  });

  it("gives a read no head start while a statement runs: it takes its turn, first among those waiting", async () => {
    const order: string[] = [];
    const transaction = pglite.transaction(async (tx) => {
      await tx.query("select 1");
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push("transaction");
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const background = start(5, "background", order);
    const read = start(1, "read", order, "read");
    await Promise.all([transaction, ...background, ...read]);
    expect(order.slice(0, 2)).toEqual(["transaction", "read"]);
  });
});
