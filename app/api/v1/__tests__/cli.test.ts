import { execFile } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createValidatedSite, newKey, serveSite, uniqueEmail } from "./support/api";

/**
 * The CLI's integrator commands as a deploy pipeline runs them: a child process talking to the
 * production build over its API, judged by its exit code and what it prints.
 */

const root = path.resolve(import.meta.dirname, "../../../..");

type Outcome = { code: number; stdout: string; stderr: string };

function preheat(args: string[], { key, script = "lib/cli/main.ts" }: { key: string; script?: string }): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...(script.endsWith(".ts") ? ["--import", "tsx"] : []), script, ...args],
      { cwd: root, env: { ...process.env, PREHEAT_API_URL: baseUrl, PREHEAT_API_KEY: key } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/** The account's key with every scope, to set sites up. */
let ownerKey: string;
/** The CI's key: the scopes the usage text asks for, no more. */
let key: string;
beforeAll(async () => {
  const email = uniqueEmail("ci");
  ownerKey = await newKey("all", email);
  key = await newKey("sites:read,boosts:write,runs:read", email);
});

/** A validated site whose every page answers 200 with this cache status. */
async function siteAnswering(cacheStatus: "HIT" | "MISS") {
  const site = await createValidatedSite(ownerKey);
  await serveSite(site.domain, { routes: {}, fallback: { status: 200, body: "<html>page</html>", headers: { "x-cache": cacheStatus } } });
  return site;
}

describe("preheat warm --wait", () => {
  it("exits 0 on a good run and prints its summary", async () => {
    const site = await siteAnswering("HIT");
    const result = await preheat(["warm", "--site", String(site.id), `http://${site.domain}/`, `http://${site.domain}/shoes`, "--wait"], { key });
    expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(result.stderr).toMatch(new RegExp(`^Warm of site ${site.id} \\(2 URLs\\): run \\d+ queued\\.\\n`));
    // Not a terminal: plain progress lines, the last one the run's end.
    expect(result.stderr).toMatch(/Run \d+: done, (\d+)\/\1 calls \(100 %\)\n$/);
    expect(result.stdout).toMatch(/^Run \d+ \(warm of site \d+\)\n {2}Status: {5}done\n/);
    expect(result.stdout).toContain("  Failures:   0\n");
    expect(result.stdout).toContain("  Hit rate:   100 %\n");
  }, 60_000);

  it("exits 1 under --min-hit-rate when the origin answers misses, naming the site by its domain", async () => {
    const site = await siteAnswering("MISS");
    const result = await preheat(["warm", "--site", site.domain, `http://${site.domain}/`, `http://${site.domain}/cart`, "--wait", "--min-hit-rate", "0.9"], { key });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain("  Status:     done\n");
    expect(result.stdout).toContain("  Hit rate:   0 %\n");
    expect(result.stderr).toMatch(/Run \d+: hit rate 0 % is under the minimum 90 % \(0 cache hits in \d+ calls\)\.\n$/);
  }, 60_000);
});

describe("preheat runs get", () => {
  it("prints the run's JSON with --json, as the API answers it, and runs as the installed bin too", async () => {
    const site = await siteAnswering("HIT");
    const queued = await preheat(["warm", "--site", String(site.id), `http://${site.domain}/`], { key });
    expect(queued.code, queued.stderr).toBe(0);
    const runId = Number(queued.stdout.trim());
    expect(queued.stdout).toBe(`${runId}\n`);

    const result = await preheat(["runs", "get", String(runId), "--json"], { key });
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toMatchObject({ id: runId, type: "warm", site_id: site.id, summary: expect.any(Object), progress: expect.any(Object) });
    expect(Object.keys(printed).sort()).toEqual(Object.keys((await api("GET", `/v1/runs/${runId}`, { key })).body).sort());

    const bin = await preheat(["runs", "get", String(runId)], { key, script: "lib/cli/bin.mjs" });
    expect(bin.code, bin.stderr).toBe(0);
    expect(bin.stdout).toMatch(new RegExp(`^Run ${runId} \\(warm of site ${site.id}\\)\\n`));
  }, 60_000);
});

describe("preheat and the API's refusals", () => {
  it("exits 3 with the API's message for a bad key, and never prints the key", async () => {
    const badKey = "phk_not_a_real_key_0000000000000000";
    const result = await preheat(["runs", "get", "1"], { key: badKey });
    expect(result).toEqual({ code: 3, stdout: "", stderr: "Error: Invalid or expired API key. (invalid_api_key)\n" });
  });

  it("exits 3 with the API's message when it refuses the warm", async () => {
    const site = await siteAnswering("HIT");
    const result = await preheat(["warm", "--site", String(site.id), "http://elsewhere.test/"], { key });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^Error: urls\[0\]: .*elsewhere\.test.* \(validation_failed\)\n$/);
  });
});
