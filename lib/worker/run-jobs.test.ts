import type PgBoss from "pg-boss";
import { describe, expect, it } from "vitest";
import { RunJobPump } from "./run-jobs";

/** A queue that holds nothing: what the pump asks of it is recorded. */
function emptyQueue() {
  const sent: { data: unknown; options: unknown }[] = [];
  let fetches = 0;
  const boss = {
    fetch: async () => {
      fetches++;
      return [];
    },
    send: async (_queue: string, data: unknown, options: unknown) => {
      sent.push({ data, options });
      return "id";
    },
    complete: async () => {},
    fail: async () => {},
  } as unknown as PgBoss;
  return { boss, sent, fetches: () => fetches };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe("a run job pump's in-process hand-over", () => {
  it("runs a job handed over at once, and fetches nothing for it", async () => {
    const queue = emptyQueue();
    const ran: unknown[] = [];
    const pump = new RunJobPump(queue.boss, "q", async (data) => ran.push(data), { maxHeld: 4, perFetch: 4, pollMs: 60_000, active: () => true, retryDelaySeconds: 15 });
    pump.start();
    await settle();
    const fetchesBefore = queue.fetches();
    expect(pump.offer("run:1", { runId: 1 })).toBe(true);
    await settle();
    expect(ran).toEqual([{ runId: 1 }]);
    expect(queue.fetches()).toBe(fetchesBefore);
    await pump.stop(1000);
  });

  it("runs a second job of the same record after the first, once however often it is sent", async () => {
    const queue = emptyQueue();
    const events: string[] = [];
    let release: () => void = () => {};
    const pump = new RunJobPump(
      queue.boss,
      "q",
      async (data) => {
        events.push(`start ${(data as { n: number }).n}`);
        if ((data as { n: number }).n === 1) await new Promise<void>((resolve) => (release = resolve));
        events.push(`end ${(data as { n: number }).n}`);
      },
      { maxHeld: 4, perFetch: 4, pollMs: 60_000, active: () => true, retryDelaySeconds: 15 },
    );
    expect(pump.offer("run:1", { n: 1 })).toBe(true);
    expect(pump.offer("run:1", { n: 2 })).toBe(true);
    expect(pump.offer("run:1", { n: 3 })).toBe(true);
    await settle();
    expect(events).toEqual(["start 1"]);
    release();
    await settle();
    expect(events).toEqual(["start 1", "end 1", "start 2", "end 2"]);
    await pump.stop(1000);
  });

  it("refuses a job when full or stopped, so that the caller queues it", async () => {
    const queue = emptyQueue();
    const pump = new RunJobPump(queue.boss, "q", () => new Promise(() => {}), { maxHeld: 1, perFetch: 1, pollMs: 60_000, active: () => true, retryDelaySeconds: 15 });
    expect(pump.offer("run:1", { runId: 1 })).toBe(true);
    expect(pump.offer("run:2", { runId: 2 })).toBe(false);
    await pump.stop(10);
    expect(pump.offer("run:3", { runId: 3 })).toBe(false);
  });

  it("queues a job that failed in-process for a retry after the queue's delay", async () => {
    const queue = emptyQueue();
    const pump = new RunJobPump(
      queue.boss,
      "q",
      async () => {
        throw new Error("database busy");
      },
      { maxHeld: 4, perFetch: 4, pollMs: 60_000, active: () => true, retryDelaySeconds: 15 },
    );
    expect(pump.offer("run:1", { runId: 1 })).toBe(true);
    await settle();
    expect(queue.sent).toEqual([{ data: { runId: 1 }, options: { singletonKey: "run:1", startAfter: 15 } }]);
    await pump.stop(1000);
  });
});

describe("a run job pump's wake-ups", () => {
  it("fetches a job queued here soon even while another process's notice is pending, and once for the two", async () => {
    const queue = emptyQueue();
    const pump = new RunJobPump(queue.boss, "q", async () => {}, { maxHeld: 4, perFetch: 4, pollMs: 60_000, active: () => true, retryDelaySeconds: 15 });
    pump.start();
    await settle();
    const fetchesBefore = queue.fetches();
    pump.notified(); // another process's jobs: fetched within 50 ms
    pump.queued(); // this process's own: within 5 ms, not behind the notice
    await settle();
    expect(queue.fetches()).toBe(fetchesBefore + 1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(queue.fetches()).toBe(fetchesBefore + 1);
    await pump.stop(1000);
  });
});
