import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cacheHitRatio } from "@/components/runs/format";
import { freePort } from "@/lib/testing/ports";
import { EXIT, hitRate, parseBoostsArgs, parseMinHitRate, parseRunsArgs, parseWarmArgs, runIntegratorCommand, urlsInText } from "./integrator";
import { barLine, plainLine, progressReporter } from "./progress";

const KEY = "phk_unit_test_key_0123456789";

type Figures = { planned?: number; completed?: number; hits?: number; failed?: number; message?: string | null };

/** A run as GET /v1/runs/{id} answers it (the fields the CLI reads, and enough of the rest). */
function runAt(id: number, status: string, { planned = 10, completed = 0, hits = 0, failed = 0, message = null }: Figures = {}) {
  const ended = !["pending", "running"].includes(status);
  return {
    id,
    type: "warm",
    boost_id: null,
    boost_name: null,
    site_id: 7,
    region: ["fr"],
    variations: null,
    status,
    status_message: message,
    started_at: status === "pending" ? null : "2026-01-01T10:00:00.000Z",
    finished_at: ended ? "2026-01-01T10:00:42.000Z" : null,
    summary: {
      total_calls: completed,
      successful_calls: completed - failed,
      failed_calls: failed,
      cache_hits: hits,
      average_response_time_ms: 12,
      pops: {},
      not_cached: completed - hits > 0 ? { miss: completed - hits - failed, ...(failed ? { http_error: failed } : {}) } : {},
      blocked_by: {},
      cache_misses: completed - hits - failed,
      average_hit_response_time_ms: null,
      average_miss_response_time_ms: null,
      verified: null,
      visitors: null,
      advice: [],
    },
    progress: { planned_calls: planned, completed_calls: completed },
    created_at: "2026-01-01T09:59:59.000Z",
    bypassed_calls: 0,
    regions_breakdown: [],
    failure_samples: [],
    pops_breakdown: [],
    slowdowns: [],
  };
}

type Seen = { method: string; path: string; body: unknown; idempotencyKey: string | undefined };

/** A stand-in for the API: a few sites, scripted runs (each read of a run moves to its next state), and every request kept. */
const fake = {
  sites: [] as { id: number; domain: string }[],
  runs: new Map<number, ReturnType<typeof runAt>[]>(),
  nextRunId: 100,
  rateLimitNext: 0,
  seen: [] as Seen[],
};

function answer(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

const server = http.createServer((req, res) => {
  let raw = "";
  req.on("data", (chunk) => (raw += chunk));
  req.on("end", () => {
    const url = new URL(req.url ?? "/", "http://fake");
    fake.seen.push({ method: req.method!, path: url.pathname + url.search, body: raw ? JSON.parse(raw) : undefined, idempotencyKey: req.headers["idempotency-key"] as string | undefined });
    if (req.headers.authorization !== `Bearer ${KEY}`) return answer(res, 401, { error: "The API key is unknown, revoked or expired.", code: "invalid_api_key" });
    if (fake.rateLimitNext > 0) {
      fake.rateLimitNext--;
      return answer(res, 429, { error: "Too many requests: try again in 2 seconds.", code: "rate_limited" }, { "retry-after": "2" });
    }
    const limit = Number(url.searchParams.get("limit") ?? 20);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    let match: RegExpExecArray | null;
    if (req.method === "GET" && url.pathname === "/v1/sites") return answer(res, 200, { data: fake.sites.slice(offset, offset + limit), total: fake.sites.length, limit, offset });
    if (req.method === "POST" && (match = /^\/v1\/sites\/(\d+)\/warm$/.exec(url.pathname))) {
      if (!fake.sites.some((site) => site.id === Number(match![1]))) return answer(res, 404, { error: "Site not found.", code: "not_found" });
      const urls = (JSON.parse(raw) as { urls: string[] }).urls;
      return answer(res, 202, { run_id: fake.nextRunId, url_count: new Set(urls).size, status: "pending" });
    }
    if (req.method === "POST" && /^\/v1\/boosts\/\d+\/run$/.test(url.pathname)) return answer(res, 202, { run_id: fake.nextRunId, status: "pending", unvalidated_limits: null });
    if (req.method === "GET" && (match = /^\/v1\/runs\/(\d+)$/.exec(url.pathname))) {
      const states = fake.runs.get(Number(match[1]));
      if (!states) return answer(res, 404, { error: "Run not found.", code: "not_found" });
      return answer(res, 200, states.length > 1 ? states.shift() : states[0]);
    }
    answer(res, 404, { error: "No such endpoint.", code: "not_found" });
  });
});

let baseUrl: string;
const slept: number[] = [];

function output(isTTY = false) {
  return {
    text: "",
    isTTY,
    columns: 100,
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

/** Runs a command in this process against the fake API; waits are recorded, not slept. */
async function cli(argv: string[], { tty = false, stdin = "" } = {}) {
  const stdout = output();
  const stderr = output(tty);
  const code = await runIntegratorCommand(argv, {
    stdout,
    stderr,
    stdin: Readable.from([stdin]),
    pollIntervalMs: 1_000,
    sleep: async (ms) => {
      slept.push(ms);
    },
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let saved: Record<string, string | undefined>;
beforeEach(() => {
  saved = { PREHEAT_API_URL: process.env.PREHEAT_API_URL, PREHEAT_API_KEY: process.env.PREHEAT_API_KEY };
  process.env.PREHEAT_API_URL = baseUrl;
  process.env.PREHEAT_API_KEY = KEY;
  fake.sites = [
    { id: 7, domain: "shop.example.com" },
    { id: 8, domain: "www.blog.example.com" },
  ];
  fake.runs.clear();
  fake.nextRunId = 100;
  fake.rateLimitNext = 0;
  fake.seen = [];
  slept.length = 0;
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** The run the next warm or boost run queues, read as `states` one after the other. */
function nextRun(...states: ReturnType<typeof runAt>[]) {
  fake.runs.set(fake.nextRunId, states);
}

const goodRun = (id = 100) => [runAt(id, "pending"), runAt(id, "running", { completed: 4 }), runAt(id, "running", { completed: 8, hits: 7 }), runAt(id, "done", { completed: 10, hits: 9 })];

describe("arguments", () => {
  it("reads warm's site, URLs, regions and waiting flags", () => {
    expect(parseWarmArgs(["--site", "shop.example.com", "https://shop.example.com/", "https://shop.example.com/a", "--regions", "fr, DE", "--wait"])).toEqual({
      site: "shop.example.com",
      urls: ["https://shop.example.com/", "https://shop.example.com/a"],
      urlsFile: undefined,
      regions: ["fr", "de"],
      wait: true,
      minHitRate: undefined,
      json: false,
    });
    expect(parseWarmArgs(["--site", "7", "--urls-file", "urls.txt", "--json"])).toMatchObject({ site: "7", urls: [], urlsFile: "urls.txt", json: true, wait: false });
  });

  it("makes --min-hit-rate wait for the run, and reads it as a share or a percentage", () => {
    expect(parseWarmArgs(["--site", "7", "https://shop.example.com/", "--min-hit-rate", "0.9"])).toMatchObject({ wait: true, minHitRate: 0.9 });
    expect(parseMinHitRate("90%")).toBe(0.9);
    expect(parseMinHitRate("1")).toBe(1);
    expect(parseMinHitRate(".5")).toBe(0.5);
    for (const bad of ["1.5", "150%", "-0.1", "abc", ""]) expect(() => parseMinHitRate(bad), bad).toThrow(/--min-hit-rate/);
  });

  it.each([
    [["https://shop.example.com/"], /--site/],
    [["--site", "7"], /needs URLs/],
    [["--site", "7", "--urls-file", "u.txt", "https://shop.example.com/"], /not both/],
    [["--site", "7", "https://shop.example.com/", "--regions", " , "], /--regions/],
    [["--site", "7", "https://shop.example.com/", "--nope"], /Unknown option/],
    [["--site"], /argument missing/],
  ])("refuses warm %j", (args, message) => {
    expect(() => parseWarmArgs(args)).toThrow(message);
  });

  it("reads boosts run and runs get, and refuses anything else", () => {
    expect(parseBoostsArgs(["run", "12", "--wait"])).toMatchObject({ id: 12, wait: true });
    expect(parseRunsArgs(["get", "5", "--json"])).toMatchObject({ id: 5, json: true, wait: false });
    expect(() => parseBoostsArgs(["start", "12"])).toThrow(/Unknown boosts command "start"/);
    expect(() => parseRunsArgs(["get", "abc"])).toThrow(/numeric id/);
    expect(() => parseRunsArgs(["get"])).toThrow(/numeric id/);
    expect(() => parseRunsArgs(["get", "1", "2"])).toThrow(/one id/);
  });

  it("reads a URL list one per line, skipping blank lines and comments", () => {
    expect(urlsInText("# pages to warm\nhttps://a.test/\r\n\n   https://a.test/b  \n  # https://a.test/old\n")).toEqual(["https://a.test/", "https://a.test/b"]);
  });
});

describe("the hit rate", () => {
  it("is cache hits among the calls made, as the dashboard's cache-hit ratio, and unknown before any call", () => {
    for (const summary of [runAt(1, "done", { completed: 10, hits: 9 }).summary, runAt(1, "done", { completed: 3, hits: 0, failed: 1 }).summary, runAt(1, "done").summary]) {
      expect(hitRate(summary)).toBe(cacheHitRatio(summary));
    }
    expect(hitRate({ cache_hits: 9, total_calls: 10 })).toBe(0.9);
    expect(hitRate({ cache_hits: 0, total_calls: 0 })).toBeNull();
  });
});

describe("progress", () => {
  const running = { id: 3, status: "running", progress: { planned_calls: 200, completed_calls: 50 } };

  it("draws a bar in place on a terminal, and ends its line before the summary", () => {
    const terminal = output(true);
    const reporter = progressReporter(terminal);
    reporter.update(running);
    reporter.update({ ...running, status: "done", progress: { planned_calls: 200, completed_calls: 200 } });
    reporter.finish();
    expect(barLine(running)).toBe(`Run 3 [${"#".repeat(8)}${"-".repeat(22)}]  25% 50/200 calls, running`);
    // The shorter last line is padded with spaces over what the longer one left.
    const last = `Run 3 [${"#".repeat(30)}] 100% 200/200 calls, done`;
    expect(terminal.text).toBe(`\r${barLine(running)}\r${last.padEnd(barLine(running).length)}\n`);
  });

  it("writes plain lines elsewhere: on a change of status at once, otherwise not more than every 5 s", () => {
    const log = output(false);
    let now = 0;
    const reporter = progressReporter(log, () => now);
    reporter.update({ ...running, status: "pending", progress: { planned_calls: 0, completed_calls: 0 } });
    reporter.update(running);
    now = 1_000;
    reporter.update({ ...running, progress: { planned_calls: 200, completed_calls: 60 } });
    now = 6_000;
    reporter.update({ ...running, progress: { planned_calls: 200, completed_calls: 60 } });
    reporter.update({ ...running, progress: { planned_calls: 200, completed_calls: 70 } });
    expect(log.text.split("\n").filter(Boolean)).toEqual(["Run 3: pending, planning", "Run 3: running, 50/200 calls (25 %)", "Run 3: running, 60/200 calls (30 %)"]);
    expect(plainLine(running)).toBe("Run 3: running, 50/200 calls (25 %)");
  });
});

describe("warm", () => {
  it("warms a site named by its domain, waits for the run and prints its summary: exit 0", async () => {
    nextRun(...goodRun());
    const result = await cli(["warm", "--site", "https://Shop.example.com/", "https://shop.example.com/", "https://shop.example.com/a", "--regions", "fr,de", "--wait"]);
    expect(result.code).toBe(EXIT.ok);
    const warmRequest = fake.seen.find((request) => request.method === "POST")!;
    expect(warmRequest).toMatchObject({ path: "/v1/sites/7/warm", body: { urls: ["https://shop.example.com/", "https://shop.example.com/a"], region: ["fr", "de"] } });
    expect(warmRequest.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.stderr).toContain("Warm of site 7 (2 URLs): run 100 queued.");
    expect(result.stderr).toContain("Run 100: pending, 0/10 calls (0 %)\nRun 100: running, 4/10 calls (40 %)\n");
    expect(result.stderr).toContain("Run 100: done, 10/10 calls (100 %)\n");
    expect(result.stdout).toMatch(/^Run 100 \(warm of site 7\)\n {2}Status: {5}done\n/);
    expect(result.stdout).toContain("  Calls:      10 of 10 planned\n");
    expect(result.stdout).toContain("  Cache hits: 9\n");
    expect(result.stdout).toContain("  Hit rate:   90 %\n");
    expect(result.stdout).toContain("  Duration:   42 s\n");
    expect(slept).toEqual([1_000, 1_000, 1_000]);
  });

  it("matches a www. variant of the domain, and pages through the sites", async () => {
    fake.sites = [...Array.from({ length: 150 }, (_, i) => ({ id: 1_000 + i, domain: `site-${i}.example.com` })), { id: 8, domain: "www.blog.example.com" }];
    const result = await cli(["warm", "--site", "blog.example.com", "https://blog.example.com/"]);
    expect(result.code).toBe(EXIT.ok);
    expect(fake.seen.map((request) => request.path)).toEqual(["/v1/sites?limit=100&offset=0", "/v1/sites?limit=100&offset=100", "/v1/sites/8/warm"]);
  });

  it("without --wait prints the run id only on stdout (--json: the API's answer)", async () => {
    expect(await cli(["warm", "--site", "7", "https://shop.example.com/"])).toMatchObject({ code: EXIT.ok, stdout: "100\n" });
    const json = await cli(["warm", "--site", "7", "https://shop.example.com/", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({ run_id: 100, url_count: 1, status: "pending" });
  });

  it("exits 1 when the hit rate is under --min-hit-rate, saying so", async () => {
    nextRun(runAt(100, "running", { completed: 5, hits: 1 }), runAt(100, "done", { completed: 10, hits: 5 }));
    const result = await cli(["warm", "--site", "7", "https://shop.example.com/", "--min-hit-rate", "0.9"]);
    expect(result.code).toBe(EXIT.runNotGood);
    expect(result.stdout).toContain("  Hit rate:   50 %\n");
    expect(result.stderr).toContain("Run 100: hit rate 50 % is under the minimum 90 % (5 cache hits in 10 calls).");
  });

  it("exits 0 when the hit rate reaches --min-hit-rate exactly", async () => {
    nextRun(runAt(100, "done", { completed: 10, hits: 9 }));
    const result = await cli(["warm", "--site", "7", "https://shop.example.com/", "--wait", "--min-hit-rate", "90%"]);
    expect(result.code).toBe(EXIT.ok);
    expect(result.stderr).toContain("hit rate 90 % reaches the minimum 90 %");
  });

  it("takes its URLs from a file or from stdin, without blank lines and comments", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "preheat-cli-"));
    try {
      const file = path.join(dir, "urls.txt");
      writeFileSync(file, "# deploy\nhttps://shop.example.com/\n\nhttps://shop.example.com/b\n");
      expect((await cli(["warm", "--site", "7", "--urls-file", file])).code).toBe(EXIT.ok);
      expect((await cli(["warm", "--site", "7", "--urls-file", "-"], { stdin: "https://shop.example.com/c\n# no\n" })).code).toBe(EXIT.ok);
      expect(fake.seen.filter((request) => request.method === "POST").map((request) => request.body)).toEqual([
        { urls: ["https://shop.example.com/", "https://shop.example.com/b"] },
        { urls: ["https://shop.example.com/c"] },
      ]);
      const missing = await cli(["warm", "--site", "7", "--urls-file", path.join(dir, "nope.txt")]);
      expect(missing).toMatchObject({ code: EXIT.usage });
      expect(missing.stderr).toMatch(/^--urls-file .*nope\.txt: cannot be read \(ENOENT\)\./);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("draws a progress bar on a terminal", async () => {
    nextRun(...goodRun());
    const result = await cli(["warm", "--site", "7", "https://shop.example.com/", "--wait"], { tty: true });
    expect(result.code).toBe(EXIT.ok);
    expect(result.stderr).toContain("\rRun 100 [");
    expect(result.stderr).toMatch(/\] 100% 10\/10 calls, done *\n$/);
  });

  it("exits 3 for a domain the account has no site for", async () => {
    const result = await cli(["warm", "--site", "elsewhere.example.com", "https://elsewhere.example.com/"]);
    expect(result.code).toBe(EXIT.api);
    expect(result.stderr).toBe("Error: No site elsewhere.example.com in the key's account: register it first (POST /v1/sites), or give --site its numeric id. (not_found)\n");
  });
});

describe("boosts run", () => {
  it.each([
    ["failed", "The CSV file answered 404."],
    ["paused", "Paused after 50 % failures over the last 100 calls."],
  ])("exits 1 when the run ends %s, with its message", async (status, message) => {
    nextRun(runAt(100, "running", { completed: 3 }), runAt(100, status, { completed: 6, failed: 5, message }));
    const result = await cli(["boosts", "run", "4", "--wait"]);
    expect(result.code).toBe(EXIT.runNotGood);
    expect(fake.seen[0]).toMatchObject({ method: "POST", path: "/v1/boosts/4/run" });
    expect(result.stdout).toContain(`  Status:     ${status}\n  Message:    ${message}\n`);
    expect(result.stderr).toContain(`Run 100 ${status}: ${message}\n`);
  });
});

describe("runs get", () => {
  it("prints the run's JSON with --json, and its summary otherwise: exit 0 whatever its state", async () => {
    fake.runs.set(55, [runAt(55, "failed", { completed: 2, failed: 2, message: "boom" })]);
    const json = await cli(["runs", "get", "55", "--json"]);
    expect(json.code).toBe(EXIT.ok);
    expect(JSON.parse(json.stdout)).toEqual(runAt(55, "failed", { completed: 2, failed: 2, message: "boom" }));
    const text = await cli(["runs", "get", "55"]);
    expect(text.code).toBe(EXIT.ok);
    expect(text.stdout).toContain("  Failures:   2\n");
  });

  it("waits out a rate limit as Retry-After asks", async () => {
    fake.runs.set(55, [runAt(55, "done", { completed: 1, hits: 1 })]);
    fake.rateLimitNext = 1;
    const result = await cli(["runs", "get", "55"]);
    expect(result.code).toBe(EXIT.ok);
    expect(slept).toEqual([2_000]);
  });
});

describe("errors", () => {
  it("exits 3 with the API's message when the key is refused, never printing the key", async () => {
    process.env.PREHEAT_API_KEY = "phk_wrong_key_do_not_print";
    const result = await cli(["runs", "get", "55"]);
    expect(result).toEqual({ code: EXIT.api, stdout: "", stderr: "Error: The API key is unknown, revoked or expired. (invalid_api_key)\n" });
  });

  it("exits 3 when the API cannot be reached, after a few attempts", async () => {
    process.env.PREHEAT_API_URL = `http://127.0.0.1:${await freePort()}`;
    const result = await cli(["runs", "get", "55"]);
    expect(result.code).toBe(EXIT.api);
    expect(result.stderr).toMatch(/^Error: Could not reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\.\n$/);
    expect(slept).toHaveLength(4);
  });

  it("exits 3 for the API's 404, with its message", async () => {
    expect(await cli(["runs", "get", "404"])).toMatchObject({ code: EXIT.api, stderr: "Error: Run not found. (not_found)\n" });
  });

  it.each([
    ["PREHEAT_API_URL", undefined, /^PREHEAT_API_URL is not set/],
    ["PREHEAT_API_KEY", undefined, /^PREHEAT_API_KEY is not set/],
    ["PREHEAT_API_URL", "ftp://preheat.example.com", /^Error: invalid configuration: PREHEAT_API_URL="ftp:\/\/preheat.example.com" is invalid/],
  ])("exits 2 when %s is %s", async (name, value, message) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
    const result = await cli(["runs", "get", "1"]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toMatch(message);
    expect(fake.seen).toEqual([]);
  });

  it("exits 2 on bad arguments, with the usage", async () => {
    const result = await cli(["warm", "--site", "7"]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain("warm needs URLs");
    expect(result.stderr).toContain("Exit codes: 0 done");
  });

  it("accepts a base address ending in /v1", async () => {
    process.env.PREHEAT_API_URL = `${baseUrl}/v1/`;
    fake.runs.set(55, [runAt(55, "done")]);
    expect((await cli(["runs", "get", "55"])).code).toBe(EXIT.ok);
    expect(fake.seen[0]!.path).toBe("/v1/runs/55");
  });
});
