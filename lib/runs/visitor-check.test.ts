import type { IncomingHttpHeaders } from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBatches, sites } from "@/drizzle/schema";
import { createSite } from "@/lib/sites/service";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { runEnded } from "@/lib/testing/run-end";
import { negotiatedEncoding } from "@/lib/warm/visitors";
import { VISITOR_PROFILES } from "@/lib/core/visitor-profiles";
import { spread, visitorCheckNote, visitorCheckRequests, visitorShares } from "./visitor-check";
import { queueWarm } from "./warm-runs";

// A cache keyed as many real ones are: the URL, the device class read from the User-Agent, and the
// best encoding the client accepts. Its pages vary on Accept-Language and set a currency cookie.
const stored = new Set<string>();
const requests: IncomingHttpHeaders[] = [];
let world: LocalWorld;

function deviceOf(userAgent = ""): string {
  if (/bot|crawler|spider/i.test(userAgent)) return "bot";
  return /iphone|android.*mobile/i.test(userAgent) ? "mobile" : "desktop";
}

beforeAll(async () => {
  process.env.PREHEAT_JOBS_POLL_SECONDS = "0.5";
  process.env.PREHEAT_VERIFY_DELAY_SECONDS = "0.2";
  world = await startLocalWorld(
    (req, res) => {
      requests.push(req.headers);
      const key = `${req.url}|${deviceOf(req.headers["user-agent"])}|${negotiatedEncoding(req.headers["accept-encoding"])}`;
      const hit = stored.has(key);
      stored.add(key);
      res
        .writeHead(200, {
          "content-type": "text/html",
          "x-cache": hit ? "HIT" : "MISS",
          "cache-control": "public, max-age=600",
          vary: "Accept-Encoding, Accept-Language",
          "set-cookie": "currency=EUR; Path=/",
        })
        .end("<p>page</p>");
    },
    { email: "visitors@example.com", work: true },
  );
}, 60_000);

afterAll(async () => {
  delete process.env.PREHEAT_VERIFY_DELAY_SECONDS;
  await world?.stop();
});

describe("the visitor check", () => {
  it("asks a sample as each standard visitor, apart from the run's calls, and names the one that misses and why", async () => {
    const site = await createSite(world.ctx, { domain: "visitors.test" });
    await world.handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
    const urls = Array.from({ length: 60 }, (_, i) => `http://visitors.test/p/${i}`);
    const { run } = await queueWarm(world.ctx, site.id, {
      urls,
      region: ["fr"],
      variations: { user_agents: ["desktop", "mobile", "bot"], languages: ["en-US"] },
      headers: { "x-warm-only": "1" },
      verify: "visitors",
    });
    const done = await runEnded(world.ctx, run.id);
    expect(done.status).toBe("done");
    // The run's own calls only: the check is counted apart.
    expect(done.summary.total_calls).toBe(180);
    const byProfile = Object.fromEntries(done.summary.visitors!.map((v) => [v.profile, v]));
    expect(Object.keys(byProfile)).toEqual([...VISITOR_PROFILES]);
    for (const profile of VISITOR_PROFILES) expect(byProfile[profile]).toMatchObject({ urls: 12, requests: 12 });
    // Chrome on Android is the mobile device asking for zstd: the warm's mobile calls (Safari) asked for br.
    expect(byProfile.chrome_android).toMatchObject({ hits: 0, cause: expect.stringContaining("zstd, which was not warmed") });
    for (const profile of ["chrome_desktop", "safari_ios", "firefox", "googlebot_smartphone"]) expect(byProfile[profile]).toMatchObject({ hits: 12, cause: null });

    expect(done.summary.advice.map((a) => a.code)).toEqual(["visitors_missed", "vary_accept_language", "set_cookie"]);
    expect(done.summary.advice[0]!.message).toBe(`Chrome Android visitors missed on 12 of 12: ${byProfile.chrome_android!.cause}.`);
    expect(done.summary.advice[1]!.message).toContain("one language was warmed (en-US)");
    expect(done.summary.advice[2]!.message).toContain("A `currency` cookie is set on 180 of 180 answers");

    // What a visitor sends: its own browser's headers, never the profile's extra ones, with the verification header.
    const visitorRequests = requests.filter((headers) => !headers["x-warm-only"]);
    expect(visitorRequests).toHaveLength(60);
    expect(visitorRequests.every((headers) => headers["preheat-verification"])).toBe(true);
    expect(new Set(visitorRequests.map((headers) => headers["user-agent"])).size).toBe(5);
    const batches = await world.handle.db.select({ purpose: runBatches.purpose }).from(runBatches).where(eq(runBatches.runId, run.id));
    expect(batches.filter((b) => b.purpose === "visitors")).toHaveLength(5);
  }, 60_000);
});

describe("the sample", () => {
  it("gives each visitor different URLs spread over the run, and shares them only when there are fewer URLs than visitors", () => {
    const urls = Array.from({ length: 1000 }, (_, i) => `u${i}`);
    const shares = visitorShares(urls, 20);
    const all = [...shares.values()].flat();
    expect(all).toHaveLength(100);
    expect(new Set(all).size).toBe(100);
    expect(shares.get("chrome_desktop")![0]).toBe("u0");
    expect(shares.get("chrome_desktop")!.at(-1)).toBe("u950");
    expect([...visitorShares(["a", "b"], 20).values()]).toEqual([["a"], ["b"], ["a"], ["b"], ["a"]]);
    expect(spread([1, 2, 3], 5)).toEqual([1, 2, 3]);
  });

  it("is bounded: 20 URLs per visitor, fewer with cookie sets, never over 500 requests a region", () => {
    expect(visitorCheckRequests(1000, 0)).toBe(100);
    expect(visitorCheckRequests(1000, 10)).toBe(500);
    expect(visitorCheckRequests(1000, 3)).toBe(300);
    expect(visitorCheckRequests(40, 0)).toBe(40);
    expect(visitorCheckRequests(3, 2)).toBe(10);
    expect(visitorCheckRequests(0, 0)).toBe(0);
    expect(visitorCheckNote(1000, 2, 0)).toBe("the visitor check adds up to 200 requests after each run (100 per region), not counted in calls nor in the quota");
  });
});
