import { readFileSync } from "node:fs";
import { afterEach, expect, inject, it } from "vitest";
import { api, createSite, newKey, serveSite } from "@/app/api/v1/__tests__/support/api";
import { keepWarmVcl, visitorHit } from "@/lib/testing/keep-warm-cache";
import { startVarnish, type Varnish } from "@/lib/testing/varnish";

// Keep-warm where visitors meet it (issue 57): one page living 20 s on a standard cache (no grace),
// visitors who never fill the cache themselves (their misses are fetched, not stored), and a
// keep-warm boost made through the API. The shorter sibling of `npm run bench -- keep-warm`.

const cachePorts = inject("cachePorts");
const originPort = Number(new URL(inject("originUrl")).port);
const HOST = "keep-warm.cache.test";
const LIFETIME = 20;
const VISIT_SECONDS = 70;

let varnish: Varnish | undefined;
afterEach(async () => {
  await varnish?.stop();
  varnish = undefined;
});

it(`keep-warm keeps a page of ${LIFETIME} s warm for visitors on a standard cache`, async () => {
  const key = await newKey();
  const site = await createSite(key, HOST);
  await serveSite(HOST, {
    routes: {
      [`/${site.validation_token}.html`]: { body: site.validation_token },
      "/urls.csv": { body: `url\nhttp://${HOST}/p/1\n`, headers: { "content-type": "text/csv" } },
      "/p/1": { body: "<html><body>page</body></html>", headers: { "cache-control": `public, max-age=0, s-maxage=${LIFETIME}` } },
    },
  });
  varnish = await startVarnish(cachePorts[HOST]!, keepWarmVcl(originPort, { staleWhileRevalidate: false }));
  expect((await api("POST", `/v1/sites/${site.id}/validate`, { key })).status).toBe(200);
  // A yearly schedule beside keep-warm, and its first full run asked for now: the minute's tick would start it up to a minute later.
  const boost = await api("POST", `/v1/sites/${site.id}/boosts`, {
    key,
    body: { name: "Kept warm", source_type: "csv", source_url: `http://${HOST}/urls.csv`, region: ["fr"], variations: { user_agents: ["desktop"] }, schedule: "0 0 1 1 *", keep_warm: true },
  });
  expect(boost.status, JSON.stringify(boost.body)).toBe(201);
  // The keep-warm tick's chain starts with the server's first minute tick (ADR 0010): on a server
  // just started for this file alone, wait for it, or the first re-warms would find no tick.
  await expect.poll(() => readFileSync(inject("serverLog"), "utf8").includes('"job":"schedule.tick"'), { timeout: 75_000, interval: 500 }).toBe(true);
  const first = await api("POST", `/v1/boosts/${boost.body.id}/run`, { key });
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  await expect.poll(async () => (await api("GET", `/v1/runs/${first.body.run_id}`, { key })).body.status, { timeout: 30_000, interval: 200 }).toBe("done");

  // Five visitors a second for 70 s: three lifetimes and more, so each hit after the first 20 s is a re-warm's.
  let hits = 0;
  let visits = 0;
  const started = Date.now();
  while (Date.now() - started < VISIT_SECONDS * 1000) {
    if (await visitorHit(cachePorts[HOST]!, HOST, "/p/1")) hits++;
    visits++;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const runs = (await api("GET", `/v1/runs?boost_id=${boost.body.id}`, { key })).body.data as { triggered_by: { kind: string }; summary: { total_calls: number } | null }[];
  const keepWarmCalls = runs.filter((run) => run.triggered_by.kind === "keep_warm").reduce((sum, run) => sum + (run.summary?.total_calls ?? 0), 0);
  console.info(`keep-warm: visitors' hit ratio ${(hits / visits).toFixed(3)} over ${visits} visits, ${keepWarmCalls} re-warms`);
  expect(hits / visits).toBeGreaterThanOrEqual(0.9);
  // One re-warm per lifetime (and its slack), not more: never while the page is still fresh.
  expect(keepWarmCalls).toBeGreaterThanOrEqual(Math.floor(VISIT_SECONDS / (LIFETIME + 3)));
  expect(keepWarmCalls).toBeLessThanOrEqual(Math.ceil(VISIT_SECONDS / LIFETIME));
}, 180_000);
