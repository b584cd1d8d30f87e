import { isActiveRun } from "@/lib/core/run-status";
import { type CachePage, keepWarmVcl, startKeepWarmOrigin, visitorHit } from "@/lib/testing/keep-warm-cache";
import { startFrontDoor } from "@/lib/testing/nginx-log";
import { freePort } from "@/lib/testing/ports";
import { startVarnish, type Varnish } from "@/lib/testing/varnish";

/**
 * Issue 59's proof of value: the same call budget spent in the sitemap's order and in traffic order,
 * measured by what visitors then get from real caches. Shared by `npm run bench -- traffic-order`
 * (5,000 pages) and the cache suite's smaller check (e2e/cache/traffic-order.test.ts).
 *
 * Two sites, each behind its own front door (nginx, lib/testing/nginx-log.ts) and cache (Varnish)
 * in front of one local origin: `pages` cacheable pages (an hour in a shared cache), listed in
 * `/urls.csv` in a seeded shuffle, so the list's order says nothing of popularity. Visitors ask with
 * Zipf popularity (s = 1: the page of rank k in proportion to 1/k). A visitor's miss is fetched and
 * not stored (lib/testing/keep-warm-cache.ts's VCL): every hit a visitor gets is the warmer's.
 *
 * 1. Learning: `learningVisits` visitors (one seed) through the traffic site's nginx, which writes
 *    its access log; that site's cache is then restarted, so nothing of it is warm.
 * 2. The log as nginx wrote it is uploaded to an `access_log` source of the traffic site. The
 *    sitemap site never gets a traffic source: with traffic data a call limit keeps the most visited
 *    URLs whatever the order, so the sitemap arm must have none to warm in its list's order.
 * 3. A CSV boost on each site, one variant in one region (a full warm is `pages` calls), with
 *    `call_limit` = `budgetShare` of a full warm: `url_order: sitemap` on one, `traffic` on the
 *    other. Both run through Preheat's worker and outbound path (PREHEAT_CONNECT_TO names each site's
 *    front door), to their end.
 * 4. `visits` fresh visitors (another seed), each sent to both sites: their hit ratio on each.
 */
export type TrafficOrderSetup = {
  /** The production server's base URL and an API key of an account that may make two sites. */
  baseUrl: string;
  key: string;
  pages: number;
  /** The call limit as a share of a full warm's calls. */
  budgetShare: number;
  learningVisits: number;
  visits: number;
  hosts: Record<Arm, string>;
  /** Per host, the port on 127.0.0.1 its nginx listens on: where PREHEAT_CONNECT_TO points the host. */
  frontDoors: Record<string, number>;
  /** The seed of the list's shuffle (59 by default): which pages a budget spent in the list's order happens to cover. */
  listSeed?: number;
  /** How long each boost's run may take. */
  runTimeoutMs?: number;
  progress?: (line: string) => void;
};

export const ARMS = ["sitemap", "traffic"] as const;
type Arm = (typeof ARMS)[number];

type VisitShare = { visits: number; total_visits: number; share: number | null };

type ArmResult = {
  host: string;
  /** The run's `summary.total_calls`, and its status. */
  calls: number;
  status: string;
  runSeconds: number;
  /** The estimate's and the run's `visit_share` (null on a site without traffic data). */
  estimateShare: (VisitShare & { urls: number; of_urls: number }) | null;
  runShare: VisitShare | null;
  /** Distinct pages the warmer fetched from the origin (through the cache): what the cache holds. */
  warmedPages: number;
  /** The learning visits that went to the warmed pages, and the visitors' expected hit ratio (the warmed pages' Zipf probability). */
  learnedShare: number;
  expectedHitRatio: number;
  hits: number;
  visits: number;
  hitRatio: number;
};

export type TrafficOrderResult = {
  pages: number;
  fullWarmCalls: number;
  budget: number;
  learning: { visits: number; logLines: number; logBytes: number; seconds: number; counts: Record<string, unknown> | null };
  /** The best any `budget` pages can give: the `budget` most popular pages' Zipf probability. */
  bestHitRatio: number;
  arms: Record<Arm, ArmResult>;
  visitSeconds: number;
};

/** A small seeded generator (mulberry32): the same streams on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each rank's probability under Zipf (s = 1) over `n` pages. */
function zipfProbabilities(n: number): number[] {
  const weights = Array.from({ length: n }, (_, k) => 1 / (k + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
}

/** `count` page ranks (0-based) drawn with Zipf popularity, from `seed`. */
function zipfStream(probabilities: number[], count: number, seed: number): number[] {
  const cumulative: number[] = [];
  let sum = 0;
  for (const p of probabilities) cumulative.push((sum += p));
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const draw = next() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < draw) low = middle + 1;
      else high = middle;
    }
    return low;
  });
}

/** The items in a seeded Fisher–Yates shuffle. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  const next = random(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Sends the stream, `concurrency` visits at a time, each visit to every target at once: hits and visits per target. */
async function sendVisitors(stream: number[], pages: CachePage[], targets: { host: string; port: number }[], concurrency = 24) {
  const tallies = targets.map(() => ({ hits: 0, visits: 0 }));
  let next = 0;
  const lane = async () => {
    while (next < stream.length) {
      const page = pages[stream[next++]!]!;
      await Promise.all(
        targets.map(async (target, i) => {
          const hit = await visitorHit(target.port, target.host, page.path);
          tallies[i]!.visits++;
          if (hit) tallies[i]!.hits++;
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return tallies;
}

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

const LEARNING_SEED = 591;
const VISITOR_SEED = 5_904;
const LIST_SEED = 59;

export async function compareTrafficOrder(setup: TrafficOrderSetup): Promise<TrafficOrderResult> {
  const say = setup.progress ?? (() => {});
  const api = async (method: string, pathname: string, body?: unknown, raw?: Uint8Array) => {
    const response = await fetch(`${setup.baseUrl}${pathname}`, {
      method,
      headers: { authorization: `Bearer ${setup.key}`, ...(raw ? { "content-type": "application/octet-stream" } : body ? { "content-type": "application/json" } : {}) },
      body: (raw ?? (body ? JSON.stringify(body) : undefined)) as BodyInit | undefined,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  // Rank k (0-based) is /p/{k+1}; the list the boosts read is a shuffle of them.
  const pages: CachePage[] = Array.from({ length: setup.pages }, (_, k) => ({ path: `/p/${k + 1}`, lifetimeSeconds: 3600, field: "s-maxage" }));
  const listed = shuffled(pages, setup.listSeed ?? LIST_SEED);
  const probabilities = zipfProbabilities(setup.pages);
  const rankOf = new Map(pages.map((page, k) => [page.path, k]));
  const fullWarmCalls = setup.pages; // one URL × one variant (desktop) × one region (fr)
  const budget = Math.round(fullWarmCalls * setup.budgetShare);

  const origin = await startKeepWarmOrigin();
  const vcl = keepWarmVcl(origin.port, { staleWhileRevalidate: false });
  const cachePorts = await distinctFreePorts(ARMS.length);
  const caches = new Map<Arm, Varnish>();
  let frontDoor: Awaited<ReturnType<typeof startFrontDoor>> | undefined;
  try {
    for (const [i, arm] of ARMS.entries()) caches.set(arm, await startVarnish(cachePorts[i]!, vcl));
    frontDoor = await startFrontDoor(ARMS.map((arm, i) => ({ host: setup.hosts[arm], listen: setup.frontDoors[setup.hosts[arm]]!, upstream: cachePorts[i]! })));
    const target = (arm: Arm) => ({ host: setup.hosts[arm], port: setup.frontDoors[setup.hosts[arm]]! });

    // The sites, their ownership proven through their front door and cache.
    const siteIds = {} as Record<Arm, number>;
    for (const arm of ARMS) {
      const site = await api("POST", "/v1/sites", { domain: setup.hosts[arm] });
      origin.serve(setup.hosts[arm], { token: site.validation_token, pages: listed, swr: false });
      await api("POST", `/v1/sites/${site.id}/validate`);
      siteIds[arm] = site.id;
    }

    // 1. Learning, through the traffic site's nginx.
    let started = performance.now();
    const learningStream = zipfStream(probabilities, setup.learningVisits, LEARNING_SEED);
    await sendVisitors(learningStream, pages, [target("traffic")]);
    const learningSeconds = (performance.now() - started) / 1000;
    const learnedVisits = new Map<number, number>();
    for (const k of learningStream) learnedVisits.set(k, (learnedVisits.get(k) ?? 0) + 1);
    const log = frontDoor.accessLog(setup.hosts.traffic);
    const logLines = log.toString("latin1").split("\n").filter(Boolean).length;
    say(`learning: ${setup.learningVisits} visits through nginx in ${learningSeconds.toFixed(1)} s; its access log: ${logLines} lines, ${log.length} bytes`);
    // Visitors' misses are never stored, and the origin saw no other request for a page; the cache is restarted all the same.
    if (origin.warmerFetches(setup.hosts.traffic).size) throw new Error("Something other than a visitor fetched a page during the learning phase.");
    await caches.get("traffic")!.stop();
    caches.set("traffic", await startVarnish(cachePorts[ARMS.indexOf("traffic")]!, vcl));

    // 2. The log, uploaded as nginx wrote it.
    const source = await api("POST", `/v1/sites/${siteIds.traffic}/traffic-sources`, { kind: "access_log", name: "nginx" });
    const uploaded = await api("POST", `/v1/sites/${siteIds.traffic}/traffic-sources/${source.id}/upload`, undefined, new Uint8Array(log));
    say(`uploaded: ${JSON.stringify(uploaded.counts)}`);

    // 3. The same budget, in each order.
    const boosts = {} as Record<Arm, number>;
    const estimates = {} as Record<Arm, { calls: number; urls: number; visit_share: ArmResult["estimateShare"]; notes: string[] }>;
    for (const arm of ARMS) {
      const boost = await api("POST", `/v1/sites/${siteIds[arm]}/boosts`, {
        name: `${arm} order`,
        source_type: "csv",
        source_url: `http://${setup.hosts[arm]}/urls.csv`,
        region: ["fr"],
        variations: { user_agents: ["desktop"] },
        call_limit: budget,
        url_order: arm,
      });
      boosts[arm] = boost.id;
      estimates[arm] = await api("GET", `/v1/boosts/${boost.id}/estimate`);
      say(`${arm} order: estimate ${estimates[arm].calls} calls of ${estimates[arm].urls} URLs, visit_share ${JSON.stringify(estimates[arm].visit_share)}; ${estimates[arm].notes.join("; ")}`);
    }
    const runs = await Promise.all(
      ARMS.map(async (arm) => {
        const { run_id: runId } = await api("POST", `/v1/boosts/${boosts[arm]}/run`);
        const deadline = Date.now() + (setup.runTimeoutMs ?? 300_000);
        for (;;) {
          const run = await api("GET", `/v1/runs/${runId}`);
          if (!isActiveRun(run.status)) return run;
          if (Date.now() > deadline) throw new Error(`The ${arm} order's run ${runId} is still ${run.status}.`);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }),
    );

    // 4. Fresh visitors, the same stream to both.
    started = performance.now();
    const tallies = await sendVisitors(zipfStream(probabilities, setup.visits, VISITOR_SEED), pages, ARMS.map(target));
    const visitSeconds = (performance.now() - started) / 1000;

    const arms = {} as Record<Arm, ArmResult>;
    for (const [i, arm] of ARMS.entries()) {
      const run = runs[i]!;
      const warmed = [...origin.warmerFetches(setup.hosts[arm]).keys()].map((path) => rankOf.get(path)!);
      const tally = tallies[i]!;
      arms[arm] = {
        host: setup.hosts[arm],
        calls: run.summary?.total_calls ?? 0,
        status: run.status,
        runSeconds: run.started_at && run.finished_at ? (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000 : Number.NaN,
        estimateShare: estimates[arm].visit_share,
        runShare: run.visit_share,
        warmedPages: warmed.length,
        learnedShare: warmed.reduce((sum, k) => sum + (learnedVisits.get(k) ?? 0), 0) / setup.learningVisits,
        expectedHitRatio: warmed.reduce((sum, k) => sum + probabilities[k]!, 0),
        hits: tally.hits,
        visits: tally.visits,
        hitRatio: tally.visits ? tally.hits / tally.visits : 0,
      };
    }
    return {
      pages: setup.pages,
      fullWarmCalls,
      budget,
      learning: { visits: setup.learningVisits, logLines, logBytes: log.length, seconds: learningSeconds, counts: uploaded.counts },
      bestHitRatio: probabilities.slice(0, budget).reduce((a, b) => a + b, 0),
      arms,
      visitSeconds,
    };
  } finally {
    await frontDoor?.stop();
    for (const cache of caches.values()) await cache.stop();
    await origin.close();
  }
}
