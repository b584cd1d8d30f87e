import { fork } from "node:child_process";
import path from "node:path";
import { percentile, roundedMean } from "./percentile";

/** One many-tenants case: N sites × M URLs, each site with concurrency C, behind an origin answering after a delay. */
export type Case = { sites: number; urls: number; concurrency: number; delayMs: number };

/** BENCH_CASES: a "sites×urls×concurrency×delayMs" list (default: the two cases, 200x100x4x200 and 1000x20x2x500). */
export function benchCases(): Case[] {
  return (process.env.BENCH_CASES ?? "200x100x4x200,1000x20x2x500").split(",").map((spec) => {
    const [sites, urls, concurrency, delayMs] = spec.split("x").map(Number);
    return { sites: sites!, urls: urls!, concurrency: concurrency!, delayMs: delayMs! };
  });
}

/**
 * The ratio the case can reach at best once its warms are in: the last site accepted after
 * `lastAcceptedSeconds` still needs its own calls' time at C (⌈M ÷ C⌉ rounds of the delay), and the
 * ratio counts from the first warm request. So the ratio is bounded by the intake whatever the
 * warming does; the bench prints it beside the ratio, so that a low ratio is read for what it is.
 */
export function ratioBound(c: Case, lastAcceptedSeconds: number): { bound: number; siteSeconds: number } {
  const idealSeconds = (c.urls * c.delayMs) / 1000 / c.concurrency;
  const siteSeconds = (Math.ceil(c.urls / c.concurrency) * c.delayMs) / 1000;
  return { bound: idealSeconds / (lastAcceptedSeconds + siteSeconds), siteSeconds };
}

/** `turnaround`: how long a site's freed slot waited for its next call, in ms (delayed-origin.ts). */
export type OriginStats = {
  served: number;
  peak: number;
  peakPerSite: number;
  spanMs: number;
  inFlight: number;
  lastAt: number;
  turnaround: { mean: number; p50: number; p90: number; p99: number } | null;
};

/** The bench line of the turnaround: where a run loses time against the ideal, call after call. */
export function turnaroundLine(stats: OriginStats): string {
  const t = stats.turnaround;
  return t ? `  a site's freed slot waited for its next call: mean ${t.mean} ms, p50 ${t.p50} ms, p90 ${t.p90} ms, p99 ${t.p99} ms` : "  no slot was freed and used again";
}

/** The bench line of the start: how long after its warm was accepted (`acceptedAt`, epoch ms by host) each site saw its first call. */
export function firstCallLine(acceptedAt: ReadonlyMap<string, number>, firstCalls: Record<string, number>): string {
  // In the order the warms were accepted, for the tenths below.
  const waits = [...acceptedAt]
    .filter(([host]) => firstCalls[host] !== undefined)
    .sort((a, b) => a[1] - b[1])
    .map(([host, at]) => Math.max(0, firstCalls[host]! - at));
  if (!waits.length) return "  no site saw a call";
  const at = (p: number) => Math.round(percentile(waits, p));
  return `  a warm's first call came after its acceptance: mean ${roundedMean(waits)} ms, p50 ${at(50)} ms, p90 ${at(90)} ms, p99 ${at(99)} ms\n${byTenth(waits)}`;
}

/**
 * The same wait for each tenth of the warms (`waits`, in the order they were accepted): the last
 * tenth's adds to the case's time directly, while the earlier ones' only show how far the runs' start
 * lags the intake.
 */
function byTenth(waits: readonly number[]): string {
  const tenths = Array.from({ length: 10 }, (_, tenth) => waits.slice(Math.floor((tenth * waits.length) / 10), Math.floor(((tenth + 1) * waits.length) / 10)));
  return `  the same, mean of each tenth of the warms in the order accepted: ${tenths
    .filter((tenth) => tenth.length)
    .map(roundedMean)
    .join(", ")} ms`;
}

/** The delayed origin (delayed-origin.ts) in a process of its own: its port, its counts, and the sites' ownership tokens it serves. */
export async function startDelayedOrigin(delayMs: number) {
  const child = fork(path.join(import.meta.dirname, "delayed-origin.ts"), { execArgv: ["--import", "tsx"], env: { ...process.env, BENCH_DELAY_MS: String(delayMs) } });
  const port = await new Promise<number>((resolve) => child.once("message", (m: { port: number }) => resolve(m.port)));
  type Answer = Partial<OriginStats> & { firstCalls?: Record<string, number> };
  /** Asks the origin a question; answers to other questions may still arrive meanwhile, so the first one `pick` recognises is its. */
  const ask = <T>(type: string, pick: (answer: Answer) => T | undefined) =>
    new Promise<T>((resolve) => {
      const listen = (answer: Answer) => {
        const picked = pick(answer);
        if (picked === undefined) return;
        child.off("message", listen);
        resolve(picked);
      };
      child.on("message", listen);
      child.send({ type });
    });
  const stats = () => ask("stats", (answer) => (answer.served === undefined ? undefined : (answer as OriginStats)));
  /** By host: when its first warming call arrived (epoch ms). */
  const firstCalls = () => ask("first-calls", (answer) => answer.firstCalls);
  return { port, pid: child.pid!, stats, firstCalls, tokens: (tokens: Record<string, string>) => child.send({ type: "tokens", tokens }), stop: () => child.kill() };
}
