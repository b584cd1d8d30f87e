import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sites } from "@/drizzle/schema";
import { createBoost } from "@/lib/boosts/service";
import { triggerBoostRun } from "@/lib/boosts/trigger";
import { getRun } from "@/lib/runs/service";
import { createSite, updateSite } from "@/lib/sites/service";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { runEnded } from "@/lib/testing/run-end";
import { queueChanges } from "./queue";

// Changes sent for a site: gathered for their delay, warmed once each, ahead of a big boost on the same site.

const BIG = 400;
/** Every page call the origin saw, in order, with the calls in flight when it arrived. */
const seen: { host: string; path: string; at: number; inFlight: number }[] = [];
let inFlight = 0;
let world: LocalWorld;

beforeAll(async () => {
  process.env.PREHEAT_CHANGE_DELAY_SECONDS = "2";
  world = await startLocalWorld(
    (req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      if (req.url === "/urls.csv") {
        return void res.writeHead(200, { "content-type": "text/csv" }).end(`url\n${Array.from({ length: BIG }, (_, i) => `http://${host}/big/${i}`).join("\n")}\n`);
      }
      inFlight++;
      seen.push({ host, path: req.url ?? "/", at: Date.now(), inFlight });
      // A slow origin: the big boost keeps the site's two slots busy for a while.
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { "content-type": "text/html", "x-cache": "MISS" }).end("<p>page</p>");
      }, 40);
    },
    { email: "changes@example.com", work: true },
  );
}, 60_000);

afterAll(async () => {
  await world?.stop();
  delete process.env.PREHEAT_CHANGE_DELAY_SECONDS;
});

async function validatedSite(domain: string) {
  const site = await createSite(world.ctx, { domain });
  await world.handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
  return site;
}

const pathsOf = (host: string, prefix: string) => seen.filter((call) => call.host === host && call.path.startsWith(prefix));

describe("changes", () => {
  it("sent twice within the delay make one warm, each URL once, after the delay; the run says it was changes", async () => {
    const domain = "coalesce.changes.test";
    const site = await validatedSite(domain);
    const sent = Date.now();
    const first = await queueChanges(world.ctx, site.id, { urls: [`http://${domain}/a`, `http://${domain}/b`] });
    const second = await queueChanges(world.ctx, site.id, { urls: [`http://${domain}/b`, `http://${domain}/c`] });
    expect(second.run_id).toBe(first.run_id);
    expect(first).toMatchObject({ url_count: 2, left_out: 0, status: "pending" });
    expect(new Date(first.warm_at).getTime() - sent).toBeGreaterThanOrEqual(1900);
    expect(second.warm_at).toBe(first.warm_at);
    const run = await runEnded(world.ctx, first.run_id);
    expect(run).toMatchObject({ status: "done", triggered_by: { kind: "changes" } });
    expect(run.summary.total_calls).toBe(3);
    const calls = pathsOf(domain, "/");
    expect(calls.map((call) => call.path).sort()).toEqual(["/a", "/b", "/c"]);
    // Not before the delay.
    expect(Math.min(...calls.map((call) => call.at))).toBeGreaterThanOrEqual(new Date(first.warm_at).getTime());
    // Changes after the run started open the next one.
    const later = await queueChanges(world.ctx, site.id, { urls: [`http://${domain}/a`], delay_seconds: 0 });
    expect(later.run_id).not.toBe(first.run_id);
    expect((await runEnded(world.ctx, later.run_id)).status).toBe("done");
  }, 30_000);

  it("sent after the delay of the site's last changes run, before it is planned, open the next run (not a 500)", async () => {
    const domain = "back-to-back.changes.test";
    const site = await validatedSite(domain);
    const first = await queueChanges(world.ctx, site.id, { urls: [`http://${domain}/one`], delay_seconds: 0 });
    // The first run's delay has passed; the tick plans it at the earliest half a second later.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await queueChanges(world.ctx, site.id, { urls: [`http://${domain}/two`], delay_seconds: 0 });
    expect(second.run_id).not.toBe(first.run_id);
    expect((await runEnded(world.ctx, first.run_id)).summary.total_calls).toBe(1);
    expect((await runEnded(world.ctx, second.run_id)).summary.total_calls).toBe(1);
    expect(
      pathsOf(domain, "/")
        .map((call) => call.path)
        .sort(),
    ).toEqual(["/one", "/two"]);
  }, 30_000);

  it("on a site busy with a big boost, are warmed within the delay and a few seconds, before the boost's remaining URLs, within the site's concurrency", async () => {
    const domain = "busy.changes.test";
    const site = await validatedSite(domain);
    await updateSite(world.ctx, site.id, { max_concurrency: 2 });
    const boost = await createBoost(world.ctx, site.id, { name: "Big", source_type: "csv", source_url: `http://${domain}/urls.csv`, region: ["fr"] });
    const big = await triggerBoostRun(world.ctx, boost.id);
    // The boost is under way.
    for (const deadline = Date.now() + 15_000; pathsOf(domain, "/big/").length < 20; ) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const sentAt = Date.now();
    const changes = await queueChanges(world.ctx, site.id, { urls: [`http://${domain}/changed/1`, `http://${domain}/changed/2`], delay_seconds: 1 });
    expect((await runEnded(world.ctx, changes.run_id)).status).toBe("done");
    const changed = pathsOf(domain, "/changed/");
    expect(changed).toHaveLength(2);
    const lastChange = Math.max(...changed.map((call) => call.at));
    expect(lastChange - sentAt).toBeLessThan(1000 + 4000);
    // The boost still had URLs left when the changes went out: they went ahead of them.
    expect(pathsOf(domain, "/big/").filter((call) => call.at > lastChange).length).toBeGreaterThan(0);
    expect((await getRun(world.ctx, big.id)).status).toMatch(/running|done/);
    await runEnded(world.ctx, big.id, 60_000);
    expect(Math.max(...seen.filter((call) => call.host === domain).map((call) => call.inFlight))).toBeLessThanOrEqual(2);
  }, 90_000);

  it("use the site's change boost's variants and regions", async () => {
    const domain = "profile.changes.test";
    const site = await validatedSite(domain);
    const boost = await createBoost(world.ctx, site.id, {
      name: "Profile",
      source_type: "csv",
      source_url: `http://${domain}/urls.csv`,
      region: ["fr", "de"],
      variations: { user_agents: ["mobile", "desktop"] },
    });
    await updateSite(world.ctx, site.id, { change_boost_id: boost.id });
    const queued = await queueChanges(world.ctx, site.id, { urls: [`http://${domain}/p`], delay_seconds: 0 });
    const run = await runEnded(world.ctx, queued.run_id);
    expect(run.summary.total_calls).toBe(4);
  }, 30_000);

  it("on a site whose ownership is not proven, warm at most its first 10 URLs a run", async () => {
    const domain = "unproven.changes.test";
    const site = await createSite(world.ctx, { domain });
    const queued = await queueChanges(world.ctx, site.id, { urls: Array.from({ length: 12 }, (_, i) => `http://${domain}/u/${i}`), delay_seconds: 0 });
    expect(queued).toMatchObject({ url_count: 10, left_out: 2 });
    expect((await runEnded(world.ctx, queued.run_id)).summary.total_calls).toBe(10);
  }, 30_000);
});
