import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { ConfigError, setting } from "@/lib/config";
import type { components } from "@/lib/openapi/client/schema";
import { isActiveRun } from "@/lib/core/run-status";
import { sameSite } from "@/lib/sites/domain-name";
import { type ApiClient, ApiError, apiClient, sleep } from "./api-client";
import { type Output, progressReporter } from "./progress";

/**
 * The CLI's integrator commands: they drive any Preheat over its API (PREHEAT_API_URL,
 * PREHEAT_API_KEY), with no database of their own, so that a deploy pipeline can warm its site and
 * gate on the outcome in one line.
 */

type RunDetail = components["schemas"]["RunDetail"];
type Summary = components["schemas"]["Summary"];
type SitePage = components["schemas"]["SitePage"];
type WarmQueued = components["schemas"]["WarmQueued"];
type RunQueued = components["schemas"]["RunQueued"];

export const EXIT = {
  /** The command did what it was asked; with --wait, the run is done (and reached --min-hit-rate). */
  ok: 0,
  /** The run failed or paused, or its hit rate is under --min-hit-rate. */
  runNotGood: 1,
  usage: 2,
  /** The API refused the request or could not be reached. */
  api: 3,
} as const;

const INTEGRATOR_COMMANDS = ["warm", "boosts", "runs"] as const;

export function isIntegratorCommand(command: string | undefined): boolean {
  return (INTEGRATOR_COMMANDS as readonly (string | undefined)[]).includes(command);
}

export const INTEGRATOR_USAGE = `Integrator commands, over the API of any Preheat: PREHEAT_API_URL is its base address, without /v1
(https://preheat.example.com), PREHEAT_API_KEY a key with the scopes boosts:write and runs:read (and
sites:read to name a site by its domain). They need no database.

  warm --site <id | domain> [--urls-file <file | -> | <url>…] [--regions fr,de] [--wait] [--min-hit-rate 0.9] [--json]
      Queues an on-demand warm of the site: the URLs given as arguments, or one per line in a file (- reads
      stdin; blank lines and # comments are skipped). Prints the run id (--json: the API's answer).
  boosts run <id> [--wait] [--min-hit-rate 0.9] [--json]
      Starts a run of the boost now. Prints the run id (--json: the API's answer).
  runs get <id> [--json] [--wait] [--min-hit-rate 0.9]
      The run's status and summary: calls, successes, failures, cache hits, hit rate, duration (--json: the API's JSON).

  --wait            Follows the run until it is done, failed or paused (a progress bar on a terminal, plain lines
                    otherwise, on stderr), then prints its summary (--json: the run's JSON).
  --min-hit-rate R  Implies --wait: the least hit rate the run must reach, as 0.9 or 90%. The hit rate is the
                    share of the calls made that the cache answered as a hit (the dashboard's cache-hit ratio).

  Exit codes: 0 done (and the hit rate reached); 1 the run failed or paused, or its hit rate is under
  --min-hit-rate; 2 a usage error (bad arguments, PREHEAT_API_URL or PREHEAT_API_KEY not set);
  3 the API refused the request or could not be reached (its message is printed).`;

class UsageError extends Error {}

/** Cache hits among the calls made, the dashboard's and the report e-mail's cache-hit ratio; null before any call. */
export function hitRate(summary: Pick<Summary, "cache_hits" | "total_calls">): number | null {
  return summary.total_calls > 0 ? summary.cache_hits / summary.total_calls : null;
}

function percent(share: number | null): string {
  return share === null ? "—" : `${(share * 100).toFixed(1).replace(/\.0$/, "")} %`;
}

/** `0.9` or `90%`: a share from 0 to 1. */
export function parseMinHitRate(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(%?)\s*$/.exec(text);
  const share = match ? Number(match[1]) / (match[2] ? 100 : 1) : Number.NaN;
  if (!(share >= 0 && share <= 1)) throw new UsageError(`--min-hit-rate ${text}: give a share from 0 to 1 (0.9) or a percentage (90%).`);
  return share;
}

function numericId(value: string | undefined, what: string): number {
  if (!value || !/^\d{1,15}$/.test(value)) throw new UsageError(`${what} needs a numeric id${value ? `, not ${JSON.stringify(value)}` : ""}.`);
  return Number(value);
}

const waitOptions = {
  wait: { type: "boolean" },
  "min-hit-rate": { type: "string" },
  json: { type: "boolean" },
} as const;

type WaitFlags = { wait?: boolean; "min-hit-rate"?: string; json?: boolean };
type Follow = { wait: boolean; minHitRate: number | undefined; json: boolean };

function follow(values: WaitFlags): Follow {
  const minHitRate = values["min-hit-rate"] === undefined ? undefined : parseMinHitRate(values["min-hit-rate"]);
  // A hit rate is only known once the run has ended.
  return { wait: Boolean(values.wait) || minHitRate !== undefined, minHitRate, json: Boolean(values.json) };
}

export type WarmArgs = Follow & { site: string; urls: string[]; urlsFile: string | undefined; regions: string[] | undefined };

export function parseWarmArgs(args: string[]): WarmArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { site: { type: "string" }, "urls-file": { type: "string" }, regions: { type: "string" }, ...waitOptions },
  });
  if (!values.site?.trim()) throw new UsageError("warm needs --site <id | domain>.");
  const urlsFile = values["urls-file"];
  if (urlsFile !== undefined && positionals.length) throw new UsageError("warm takes its URLs from --urls-file or as arguments, not both.");
  if (urlsFile === undefined && !positionals.length) throw new UsageError("warm needs URLs: as arguments, or --urls-file <file> (- for stdin).");
  let regions: string[] | undefined;
  if (values.regions !== undefined) {
    regions = values.regions
      .split(",")
      .map((region) => region.trim().toLowerCase())
      .filter(Boolean);
    if (!regions.length) throw new UsageError("--regions needs region codes, comma separated (fr,de).");
  }
  return { site: values.site.trim(), urls: positionals, urlsFile, regions, ...follow(values) };
}

export type RunArgs = Follow & { id: number };

function parseIdCommand(args: string[], action: string, command: string, extra: Record<string, { type: "boolean" | "string" }> = {}): RunArgs {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...waitOptions, ...extra } });
  const [given, id, ...rest] = positionals;
  if (given !== action) throw new UsageError(`Unknown ${command} command ${JSON.stringify(given ?? "")}: ${command} ${action} <id>.`);
  if (rest.length) throw new UsageError(`${command} ${action} takes one id, not ${JSON.stringify(rest.join(" "))} after it.`);
  return { id: numericId(id, `${command} ${action}`), ...follow(values as WaitFlags) };
}

export const parseBoostsArgs = (args: string[]) => parseIdCommand(args, "run", "boosts");
export const parseRunsArgs = (args: string[]) => parseIdCommand(args, "get", "runs");

/** One URL per line; blank lines and `#` comments are skipped. */
export function urlsInText(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
}

async function readUrlsFile(file: string, stdin: AsyncIterable<string | Buffer>): Promise<string[]> {
  let text = "";
  if (file === "-") {
    for await (const chunk of stdin) text += chunk;
  } else {
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new UsageError(`--urls-file ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
  }
  const urls = urlsInText(text);
  if (!urls.length) throw new UsageError(`--urls-file ${file} lists no URL.`);
  return urls;
}

/** The base address and the key, read only here: the command's other code never sees the key's value. */
function connection(): { baseUrl: string; key: string } {
  const baseUrl = setting("PREHEAT_API_URL");
  if (!baseUrl) throw new UsageError("PREHEAT_API_URL is not set: the base address of the Preheat API, without /v1 (e.g. https://preheat.example.com).");
  const key = setting("PREHEAT_API_KEY");
  if (!key) throw new UsageError("PREHEAT_API_KEY is not set: an API key (phk_…) of the account, with the scopes boosts:write and runs:read.");
  // "…/v1" is a common slip: every path below starts with /v1.
  return { baseUrl: baseUrl.replace(/\/v1$/, ""), key };
}

const hostOf = (site: string) =>
  site
    .trim()
    .replace(/^https?:\/\//i, "")
    .replace(/\/.*$/, "")
    .toLowerCase();

/** The site's id: given, or found by its domain in the account's sites (`www.` variants match when no site has the exact domain). */
async function siteIdOf(client: ApiClient, site: string): Promise<number> {
  if (/^\d+$/.test(site)) return Number(site);
  const wanted = hostOf(site);
  const variants: number[] = [];
  const limit = 100;
  for (let offset = 0; ; offset += limit) {
    const page = await client.get<SitePage>(`/sites?limit=${limit}&offset=${offset}`);
    const exact = page.data.find((candidate) => candidate.domain === wanted);
    if (exact) return exact.id;
    variants.push(...page.data.filter((candidate) => sameSite(candidate.domain, wanted)).map((candidate) => candidate.id));
    if (!page.data.length || offset + limit >= page.total) break;
  }
  if (variants.length === 1) return variants[0]!;
  throw new ApiError(`No site ${wanted} in the key's account: register it first (POST /v1/sites), or give --site its numeric id.`, 404, "not_found");
}

function duration(run: RunDetail, now: number): string {
  if (!run.started_at) return "not started";
  const end = run.finished_at ? Date.parse(run.finished_at) : now;
  const seconds = Math.max(0, Math.round((end - Date.parse(run.started_at)) / 1000));
  const text = seconds < 60 ? `${seconds} s` : seconds < 3600 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${Math.floor(seconds / 3600)} h ${Math.floor(seconds / 60) % 60} min`;
  return run.finished_at ? text : `${text} so far`;
}

/** The run as `runs get` and `--wait` print it. */
function summaryText(run: RunDetail, now = Date.now()): string {
  const { summary, progress } = run;
  const count = (value: number) => value.toLocaleString("en");
  const origin = run.type === "warm" ? `warm of site ${run.site_id}` : `boost ${run.boost_id}${run.boost_name ? ` (${run.boost_name})` : ""}, site ${run.site_id}`;
  const notCached = Object.entries(summary.not_cached)
    .map(([reason, calls]) => `${reason} ${count(calls ?? 0)}`)
    .join(", ");
  // A row without a value (no message, nothing verified) is left out.
  const rows: [string, string | null][] = [
    ["Status", run.status],
    ["Message", run.status_message],
    ["Calls", `${count(summary.total_calls)} of ${count(Math.max(progress.planned_calls, summary.total_calls))} planned`],
    ["Successes", count(summary.successful_calls)],
    ["Failures", count(summary.failed_calls)],
    ["Cache hits", count(summary.cache_hits)],
    ["Hit rate", percent(hitRate(summary))],
    ["Not cached", notCached || null],
    ["Verified", summary.verified && `${count(summary.verified.hits)} of ${count(summary.verified.calls)} misses asked again were hits`],
    ["Duration", duration(run, now)],
  ];
  const lines = rows.flatMap(([label, value]) => (value ? [`  ${`${label}:`.padEnd(12)}${value}`] : []));
  return `Run ${run.id} (${origin})\n${lines.join("\n")}\n`;
}

export type IntegratorIO = {
  stdout: Output;
  stderr: Output;
  stdin: AsyncIterable<string | Buffer>;
  /** Between two reads of a run while waiting (about a second). */
  pollIntervalMs?: number;
  sleep?: (ms: number) => Promise<void>;
};

const processIO = (): IntegratorIO => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });

async function waitForRun(client: ApiClient, id: number, io: IntegratorIO): Promise<RunDetail> {
  const reporter = progressReporter(io.stderr);
  const wait = io.sleep ?? sleep;
  try {
    for (;;) {
      const run = await client.get<RunDetail>(`/runs/${id}`);
      reporter.update(run);
      if (!isActiveRun(run.status)) return run;
      await wait(io.pollIntervalMs ?? 1_000);
    }
  } finally {
    reporter.finish();
  }
}

/** The exit code of an ended run, with the reason on stderr when it is not 0. */
function verdict(run: RunDetail, minHitRate: number | undefined, stderr: Output): number {
  if (run.status === "failed" || run.status === "paused") {
    stderr.write(`Run ${run.id} ${run.status}${run.status_message ? `: ${run.status_message}` : "."}\n`);
    return EXIT.runNotGood;
  }
  if (minHitRate === undefined) return EXIT.ok;
  const rate = hitRate(run.summary);
  if (rate === null || rate < minHitRate) {
    stderr.write(`Run ${run.id}: hit rate ${percent(rate)} is under the minimum ${percent(minHitRate)} (${run.summary.cache_hits} cache hits in ${run.summary.total_calls} calls).\n`);
    return EXIT.runNotGood;
  }
  stderr.write(`Run ${run.id}: hit rate ${percent(rate)} reaches the minimum ${percent(minHitRate)}.\n`);
  return EXIT.ok;
}

const asJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function show(client: ApiClient, id: number, options: Follow, io: IntegratorIO): Promise<number> {
  const run = options.wait ? await waitForRun(client, id, io) : await client.get<RunDetail>(`/runs/${id}`);
  io.stdout.write(options.json ? asJson(run) : summaryText(run));
  return options.wait ? verdict(run, options.minHitRate, io.stderr) : EXIT.ok;
}

/** A run was queued: its id (or the API's answer) on stdout, or, with --wait, its outcome. */
async function queued(client: ApiClient, answer: { run_id: number }, what: string, options: Follow, io: IntegratorIO): Promise<number> {
  io.stderr.write(`${what}: run ${answer.run_id} queued.\n`);
  if (options.wait) return show(client, answer.run_id, options, io);
  io.stdout.write(options.json ? asJson(answer) : `${answer.run_id}\n`);
  return EXIT.ok;
}

async function warm(args: string[], io: IntegratorIO): Promise<number> {
  const options = parseWarmArgs(args);
  const client = apiClient({ ...connection(), sleep: io.sleep });
  const urls = options.urlsFile === undefined ? options.urls : await readUrlsFile(options.urlsFile, io.stdin);
  const siteId = await siteIdOf(client, options.site);
  const answer = await client.post<WarmQueued>(`/sites/${siteId}/warm`, { urls, ...(options.regions ? { region: options.regions } : {}) });
  return queued(client, answer, `Warm of site ${siteId} (${answer.url_count} URL${answer.url_count === 1 ? "" : "s"})`, options, io);
}

async function boosts(args: string[], io: IntegratorIO): Promise<number> {
  const options = parseBoostsArgs(args);
  const client = apiClient({ ...connection(), sleep: io.sleep });
  const answer = await client.post<RunQueued>(`/boosts/${options.id}/run`);
  if (answer.unvalidated_limits) io.stderr.write(`${answer.unvalidated_limits.message}\n`);
  return queued(client, answer, `Boost ${options.id}`, options, io);
}

async function runs(args: string[], io: IntegratorIO): Promise<number> {
  const options = parseRunsArgs(args);
  return show(apiClient({ ...connection(), sleep: io.sleep }), options.id, options, io);
}

const COMMANDS: Record<(typeof INTEGRATOR_COMMANDS)[number], (args: string[], io: IntegratorIO) => Promise<number>> = { warm, boosts, runs };

/** Runs one integrator command; answers the exit code. Expected errors are one line on stderr, never a stack trace. */
export async function runIntegratorCommand(argv: string[], io: IntegratorIO = processIO()): Promise<number> {
  const [command, ...args] = argv;
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(`${INTEGRATOR_USAGE}\n`);
    return EXIT.ok;
  }
  try {
    if (!isIntegratorCommand(command)) throw new UsageError(`Unknown command ${JSON.stringify(command ?? "")}.`);
    return await COMMANDS[command as (typeof INTEGRATOR_COMMANDS)[number]](args, io);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`${(error as Error).message}\n\n${INTEGRATOR_USAGE}\n`);
      return EXIT.usage;
    }
    if (error instanceof ConfigError) {
      io.stderr.write(`Error: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof ApiError) {
      io.stderr.write(`Error: ${error.message}${error.code ? ` (${error.code})` : ""}\n`);
      return EXIT.api;
    }
    throw error;
  }
}
