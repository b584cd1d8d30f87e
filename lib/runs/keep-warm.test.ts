import type { ServerResponse } from "node:http";
import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boosts, keepWarmEntries, runs, sites } from "@/drizzle/schema";
import { resumeOrganization, suspendOrganization } from "@/lib/accounts/operator";
import { createBoost, toBoost, updateBoost } from "@/lib/boosts/service";
import { triggerBoostRun } from "@/lib/boosts/trigger";
import type { AccountContext } from "@/lib/context";
import type { DatabaseHandle } from "@/lib/db";
import { claimDueEntries } from "@/lib/freshness/entries";
import { createSite } from "@/lib/sites/service";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { runEnded } from "@/lib/testing/run-end";
import { closeKeepWarmRuns, warmDueEntries } from "./keep-warm";

// Keep-warm on a local origin whose pages live a few seconds (the floor lowered to match): each page
// is warmed again once per lifetime, just after it expires, never while it is fresh.

const LIFETIME = 3;
/** The Cache-Control of each path; the CSV lists them all. */
const PAGES: Record<string, string> = {
  "/a": `public, max-age=0, s-maxage=${LIFETIME}`,
  "/b": `public, s-maxage=${LIFETIME}, stale-while-revalidate=30`,
  "/private": "private, max-age=600",
  "/short": "public, s-maxage=1",
};
/**
 * A CDN serving a stale copy inside its stale-while-revalidate window, as it answers a re-warm aimed
 * there: its Age past the lifetime (the CDN refreshes it in the background from that request).
 */
const GRACE_HOST = "grace.keepwarm.test";
function graceAnswer(req: { url?: string }, res: ServerResponse) {
  if (req.url === "/urls.csv") return void res.writeHead(200, { "content-type": "text/csv" }).end(`url\nhttp://${GRACE_HOST}/grace\n`);
  asked.set(`${GRACE_HOST}${req.url}`, [...(asked.get(`${GRACE_HOST}${req.url}`) ?? []), Date.now()]);
  res.writeHead(200, { "content-type": "text/html", "cache-control": `public, s-maxage=${LIFETIME}, stale-while-revalidate=30`, age: String(LIFETIME + 2), "x-cache": "HIT" }).end("<html></html>");
}
/** When each host's paths were asked for (epoch ms), the CSV aside. */
const asked = new Map<string, number[]>();
let world: LocalWorld;
let handle: DatabaseHandle;
let ctx: AccountContext;

beforeAll(async () => {
  process.env.PREHEAT_KEEP_WARM_MIN_INTERVAL_SECONDS = "2";
  process.env.PREHEAT_KEEP_WARM_WINDOW_MINUTES = "1";
  world = await startLocalWorld(
    (req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      if (host === GRACE_HOST) return void graceAnswer(req, res);
      if (req.url === "/urls.csv")
        return void res.writeHead(200, { "content-type": "text/csv" }).end(
          `url\n${Object.keys(PAGES)
            .map((path) => `http://${host}${path}`)
            .join("\n")}\n`,
        );
      const path = req.url ?? "/";
      asked.set(`${host}${path}`, [...(asked.get(`${host}${path}`) ?? []), Date.now()]);
      res.writeHead(200, { "content-type": "text/html", "cache-control": PAGES[path] ?? "no-store", "x-cache": "MISS" }).end("<html><body>page</body></html>");
    },
    { email: "keepwarm@example.com", work: true },
  );
  ({ handle, ctx } = world);
}, 60_000);

afterAll(async () => {
  await world?.stop();
  delete process.env.PREHEAT_KEEP_WARM_MIN_INTERVAL_SECONDS;
  delete process.env.PREHEAT_KEEP_WARM_WINDOW_MINUTES;
});

async function keepWarmBoost(domain: string) {
  const site = await createSite(ctx, { domain });
  await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
  const boost = await createBoost(ctx, site.id, { name: "Warm", source_type: "csv", source_url: `http://${domain}/urls.csv`, region: ["fr"], keep_warm: true });
  // The tests trigger the full run themselves: the cron tick's would warm the pages while they are fresh.
  await handle.db
    .update(boosts)
    .set({ nextRunAt: new Date(Date.now() + 86_400_000) })
    .where(eq(boosts.id, boost.id));
  return { site, boost };
}

const entriesOf = (boostId: number) => handle.db.select().from(keepWarmEntries).where(eq(keepWarmEntries.boostId, boostId));

/** Runs the keep-warm tick's passes for `ms`, as the worker's tick does every second (here every 200 ms). */
async function tickFor(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await closeKeepWarmRuns(handle.db);
    await warmDueEntries(handle.db);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("keep-warm", () => {
  it("is saved on the boost, and a boost without a schedule gets a full run at once, then daily", async () => {
    const { boost } = await keepWarmBoost("saved.keepwarm.test");
    expect(toBoost(boost)).toMatchObject({ keep_warm: true, keep_warm_lead: 0, monthly_call_budget: null });
    expect(boost.nextRunAt!.getTime()).toBeLessThanOrEqual(Date.now());
    const updated = await updateBoost(ctx, boost.id, { monthly_call_budget: 5000, keep_warm_lead: 0.1 });
    expect(toBoost(updated)).toMatchObject({ keep_warm: true, keep_warm_lead: 0.1, monthly_call_budget: 5000 });
  });

  it("re-warms each page once per lifetime, just after it expires, and leaves out what it cannot keep warm", async () => {
    const domain = "rewarm.keepwarm.test";
    const { boost } = await keepWarmBoost(domain);
    const first = await runEnded(ctx, (await triggerBoostRun(ctx, boost.id)).id);
    expect(first.status).toBe("done");
    const entries = await entriesOf(boost.id);
    const byPath = new Map(entries.map((entry) => [new URL(entry.call.url).pathname, entry]));
    expect(byPath.get("/a")).toMatchObject({ lifetimeSeconds: LIFETIME, reason: null });
    expect(byPath.get("/b")).toMatchObject({ lifetimeSeconds: LIFETIME, staleWhileRevalidateSeconds: 30, reason: null });
    expect(byPath.get("/private")).toMatchObject({ dueAt: null, reason: expect.stringMatching(/private/) });
    expect(byPath.get("/short")).toMatchObject({ dueAt: null, reason: "a shared-cache lifetime of 1 s: shorter than the 2 s floor" });
    const a = byPath.get("/a")!;
    expect(a.dueAt!.getTime() - a.freshUntil!.getTime()).toBe(1000);

    await tickFor(3 * LIFETIME * 1000 + 1500);
    for (const path of ["/a", "/b"]) {
      const times = asked.get(`${domain}${path}`)!;
      // The full run, then one re-warm a lifetime after each warm: never sooner, at most the slack (2 s) plus a tick later.
      expect(times.length, path).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < times.length; i++) {
        const gap = times[i]! - times[i - 1]!;
        expect(gap, `${path} re-warm ${i}`).toBeGreaterThanOrEqual(LIFETIME * 1000);
        expect(gap, `${path} re-warm ${i}`).toBeLessThan((LIFETIME + 2) * 1000 + 700);
      }
    }
    expect(asked.get(`${domain}/private`)).toHaveLength(1);
    expect(asked.get(`${domain}/short`)).toHaveLength(1);
    // One keep-warm run gathers the re-warms, beside the boost's own run.
    const keepWarmRuns = await handle.db
      .select()
      .from(runs)
      .where(and(eq(runs.boostId, boost.id), eq(runs.trigger, "keep_warm")));
    expect(keepWarmRuns).toHaveLength(1);
    expect(keepWarmRuns[0]).toMatchObject({ status: "running", kind: "boost" });
    expect(keepWarmRuns[0]!.plannedCalls).toBe(asked.get(`${domain}/a`)!.length - 1 + (asked.get(`${domain}/b`)!.length - 1));
  }, 60_000);

  it("keeps chasing a page whose re-warm is answered stale inside its stale-while-revalidate window", async () => {
    const { boost } = await keepWarmBoost(GRACE_HOST);
    await runEnded(ctx, (await triggerBoostRun(ctx, boost.id)).id);
    const [entry] = await entriesOf(boost.id);
    // Stale on arrival (Age 5 over a 3 s lifetime), yet inside its 30 s window: the copy the CDN now keeps is fresh a lifetime from the call.
    expect(entry).toMatchObject({ reason: null, staleWhileRevalidateSeconds: 30 });
    expect(entry!.dueAt!.getTime() - entry!.lastWarmedAt!.getTime()).toBe((LIFETIME + 1) * 1000);
    await tickFor(2 * (LIFETIME + 2) * 1000);
    expect(asked.get(`${GRACE_HOST}/grace`)!.length).toBeGreaterThanOrEqual(3);
  }, 30_000);

  it("claims an entry up to a quarter of the slack before it is due, so that a pass just before its due time does not leave it a second late", async () => {
    const { boost } = await keepWarmBoost("ahead.keepwarm.test");
    await runEnded(ctx, (await triggerBoostRun(ctx, boost.id)).id);
    // A pass 20 s ahead, which the worker's own tick (once a second) does not reach meanwhile.
    const now = new Date(Date.now() + 20_000);
    // The slack is 2 s: a pass at `now` claims what is due by now + 0.5 s.
    const dueIn = (path: string, ms: number) =>
      handle.db
        .update(keepWarmEntries)
        .set({ dueAt: new Date(now.getTime() + ms) })
        .where(and(eq(keepWarmEntries.boostId, boost.id), sql`${keepWarmEntries.call}->>'url' like ${`%${path}`}`));
    await dueIn("/a", 400);
    await dueIn("/b", 600);
    await warmDueEntries(handle.db, now);
    const byPath = new Map((await entriesOf(boost.id)).map((entry) => [new URL(entry.call.url).pathname, entry.dueAt?.getTime()]));
    expect(byPath.get("/a")).toBeGreaterThan(now.getTime() + 1000);
    expect(byPath.get("/b")).toBe(now.getTime() + 600);
  }, 30_000);

  it("holds the re-warms of a boost whose run's window has passed until the tick ends it, then opens the next run", async () => {
    const domain = "window.keepwarm.test";
    const { boost } = await keepWarmBoost(domain);
    await runEnded(ctx, (await triggerBoostRun(ctx, boost.id)).id);
    await new Promise((resolve) => setTimeout(resolve, (LIFETIME + 1.2) * 1000));
    await warmDueEntries(handle.db);
    const keepWarmRuns = () =>
      handle.db
        .select()
        .from(runs)
        .where(and(eq(runs.boostId, boost.id), eq(runs.trigger, "keep_warm")))
        .orderBy(runs.id);
    const [first] = await keepWarmRuns();
    expect(first).toMatchObject({ status: "running", plannedCalls: 2 });
    // Its window passes while it still counts as warming (the tick has not ended it yet).
    await handle.db
      .update(runs)
      .set({ openUntil: new Date(Date.now() - 1000) })
      .where(eq(runs.id, first!.id));
    // Passes of a tick 20 s ahead: the worker's own tick (once a second) leaves these entries alone meanwhile.
    const now = new Date(Date.now() + 20_000);
    const chased = and(eq(keepWarmEntries.boostId, boost.id), isNull(keepWarmEntries.reason));
    await handle.db.update(keepWarmEntries).set({ dueAt: now }).where(chased);
    await warmDueEntries(handle.db, now);
    const held = await handle.db.select().from(keepWarmEntries).where(chased);
    expect(held.map((entry) => entry.dueAt!.getTime())).toEqual([now.getTime() + 1000, now.getTime() + 1000]);
    // Ended by the tick once its batches are warmed.
    const deadline = Date.now() + 10_000;
    while (!(await closeKeepWarmRuns(handle.db)).includes(first!.id)) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await warmDueEntries(handle.db, new Date(now.getTime() + 1000));
    const [ended, next] = await keepWarmRuns();
    expect(ended).toMatchObject({ id: first!.id, status: "done", plannedCalls: 2 });
    expect(next).toMatchObject({ status: "running", plannedCalls: 2 });
  }, 30_000);

  it("an entry claimed by a worker that dies is warmed again later, never lost", async () => {
    const domain = "crash.keepwarm.test";
    const { boost } = await keepWarmBoost(domain);
    await runEnded(ctx, (await triggerBoostRun(ctx, boost.id)).id);
    // A worker claims the due entries, then dies before adding them to a run. Its pass is 20 s ahead, so
    // that the worker's own tick (once a second) leaves them alone meanwhile; they come back 2 s from now.
    const now = new Date(Date.now() + 20_000);
    await handle.db
      .update(keepWarmEntries)
      .set({ dueAt: now })
      .where(and(eq(keepWarmEntries.boostId, boost.id), isNull(keepWarmEntries.reason)));
    const claimed = (await claimDueEntries(handle.db, now, 1000, -18)).filter((entry) => entry.boostId === boost.id);
    expect(claimed.map((entry) => new URL(entry.call.url).pathname).sort()).toEqual(["/a", "/b"]);
    // Claimed once: nobody else takes them meanwhile.
    expect((await claimDueEntries(handle.db, new Date(), 1000, 2)).filter((entry) => entry.boostId === boost.id)).toEqual([]);
    const before = asked.get(`${domain}/a`)!.length;
    await tickFor(3500);
    expect(asked.get(`${domain}/a`)!.length).toBe(before + 1);
  }, 30_000);

  it("spends no more than the boost's monthly budget, on the first pages in its order", async () => {
    const domain = "budget.keepwarm.test";
    const { boost } = await keepWarmBoost(domain);
    await updateBoost(ctx, boost.id, { monthly_call_budget: 1 });
    await runEnded(ctx, (await triggerBoostRun(ctx, boost.id)).id);
    const [a, b] = [asked.get(`${domain}/a`)!.length, asked.get(`${domain}/b`)!.length];
    await tickFor(2 * LIFETIME * 1000 + 1500);
    // One keep-warm call this month: the first page in the CSV's order; the second waits.
    expect(asked.get(`${domain}/a`)!.length).toBe(a + 1);
    expect(asked.get(`${domain}/b`)!.length).toBe(b);
    const [run] = await handle.db
      .select()
      .from(runs)
      .where(and(eq(runs.boostId, boost.id), eq(runs.trigger, "keep_warm")));
    expect(run!.plannedCalls).toBe(1);
    // Turned off, it forgets its pages: nothing comes back to re-warm them.
    await updateBoost(ctx, boost.id, { keep_warm: false });
    expect(await entriesOf(boost.id)).toEqual([]);
  }, 30_000);

  it("stops for a suspended organization: its due entries wait, looked at again an hour later", async () => {
    const domain = "suspended.keepwarm.test";
    const { boost } = await keepWarmBoost(domain);
    await runEnded(ctx, (await triggerBoostRun(ctx, boost.id)).id);
    await suspendOrganization(handle.db, ctx.accountId, { reason: "test" }, "ops@example.com");
    const before = asked.get(`${domain}/a`)!.length;
    await tickFor((LIFETIME + 2) * 1000);
    expect(asked.get(`${domain}/a`)).toHaveLength(before);
    const [entry] = (await entriesOf(boost.id)).filter((e) => e.call.url.endsWith("/a"));
    expect(entry!.dueAt!.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    // Resumed, it does not wait for the hour: the pages went cold meanwhile.
    await resumeOrganization(handle.db, ctx.accountId, "ops@example.com");
    await tickFor(1500);
    expect(asked.get(`${domain}/a`)).toHaveLength(before + 1);
  }, 30_000);

  it("warms a paused boost's cold pages as soon as it is resumed", async () => {
    const domain = "paused.keepwarm.test";
    const { boost } = await keepWarmBoost(domain);
    await runEnded(ctx, (await triggerBoostRun(ctx, boost.id)).id);
    await handle.db.update(boosts).set({ status: "paused" }).where(eq(boosts.id, boost.id));
    const before = asked.get(`${domain}/a`)!.length;
    await tickFor((LIFETIME + 2) * 1000);
    expect(asked.get(`${domain}/a`)).toHaveLength(before);
    // Any update of a paused boost resumes it.
    await updateBoost(ctx, boost.id, { name: "Warm again" });
    await tickFor(1500);
    expect(asked.get(`${domain}/a`)).toHaveLength(before + 1);
  }, 30_000);
});
