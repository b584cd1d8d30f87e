import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sites } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import type { AccountContext } from "@/lib/context";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { type EmbeddedJobs, startEmbeddedJobs } from "@/lib/jobs/embedded";
import { createSite } from "@/lib/sites/service";
import { queueWarm } from "@/lib/warm/service";
import { runDetailSchema } from "./schemas";
import { getRun } from "./service";

let server: http.Server;
let handle: DatabaseHandle;
let jobs: EmbeddedJobs;
let ctx: AccountContext;

beforeAll(async () => {
  // "/" is a cache hit, "/bypass" is passed through uncached (as Vercel does for crawlers), "/broken" fails.
  server = http.createServer((req, res) => {
    if (req.url === "/broken") return void res.writeHead(500).end("boom");
    const verdict = req.url === "/bypass" ? "BYPASS" : "HIT";
    res.writeHead(200, { "content-type": "text/html", "x-vercel-cache": verdict, "x-vercel-id": "cdg1::iad1::abc" }).end("<html></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.PREHEAT_CONNECT_TO = `:80:127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.PREHEAT_JOBS_POLL_SECONDS = "0.5";
  delete process.env.DATABASE_URL;
  handle = await openDatabase({ dataDir: "memory://" });
  jobs = await startEmbeddedJobs(handle, { work: true });
  const { user } = await findOrCreateUser(handle.db, "run-detail@example.com");
  ctx = { db: handle.db, accountId: user.accountId };
}, 60_000);

afterAll(async () => {
  await jobs?.stop();
  await handle?.close();
  await new Promise((resolve) => server.close(resolve));
  delete process.env.PREHEAT_CONNECT_TO;
});

async function ended(runId: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await getRun(ctx, runId);
    if (["done", "failed", "paused"].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("GET /v1/runs/{id} details", () => {
  it("gives per-region figures, the bypassed calls and failure samples", async () => {
    const site = await createSite(ctx, { domain: "detail.test" });
    await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
    const urls = ["http://detail.test/", "http://detail.test/bypass", "http://detail.test/broken"];
    const { run } = await queueWarm(ctx, site.id, { urls, region: ["gb", "fr"] });

    const pending = await getRun(ctx, run.id);
    expect(runDetailSchema.parse(pending)).toBeTruthy();
    expect(pending.bypassed_calls).toBe(0);
    expect(pending.failure_samples).toEqual([]);
    expect(pending.regions_breakdown.map((r) => r.region)).toEqual(["gb", "fr"]);

    const done = await ended(run.id);
    expect(runDetailSchema.parse(done)).toBeTruthy();
    expect(done.summary).toMatchObject({ total_calls: 6, successful_calls: 4, failed_calls: 2, cache_hits: 2 });
    expect(done.bypassed_calls).toBe(2);
    expect(done.regions_breakdown).toEqual(
      ["gb", "fr"].map((region) => ({
        region,
        total_calls: 3,
        successful_calls: 2,
        failed_calls: 1,
        cache_hits: 1,
        bypassed_calls: 1,
        average_response_time_ms: expect.any(Number),
      })),
    );
    expect(done.failure_samples).toHaveLength(2);
    expect(done.failure_samples[0]).toMatchObject({ url: "http://detail.test/broken", status: 500, user_agent: "desktop", language: null, error: expect.any(String) });
    expect(done.failure_samples.map((s) => s.region).sort()).toEqual(["fr", "gb"]);
  });
});
