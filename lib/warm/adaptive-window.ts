/**
 * The engine's own politeness beyond Retry-After: additive increase, multiplicative decrease of the
 * window of calls a run keeps open to a site, driven by the site's response times.
 *
 * - The baseline is the median response time of the run's first 50 calls.
 * - When the median of the last 50 calls rises above 3 × the baseline, the window halves (1 at least).
 * - When it is back under 1.5 × the baseline, the window grows by one (up to the site's concurrency).
 * - A 429 or 503 with Retry-After sets the window to 1 at once.
 * - At most one change per 50 calls, so that each decision sees calls made at the current window.
 */
export const ADAPTIVE = { sample: 50, slowFactor: 3, recoveredFactor: 1.5 } as const;

export type WindowChange = { reason: string; concurrency: number };

const median = (sorted: readonly number[]) => {
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Where `value` goes in `sorted` (ascending) to keep it sorted: the first index whose value is not below it. */
function rank(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class AdaptiveWindow {
  private readonly first: number[] = [];
  private readonly recent: number[] = [];
  /** The same calls as `recent`, kept sorted: the median is asked after every call, and sorting 50 numbers each time was 3.7 % of a worker's thread in the per-call bench. */
  private readonly recentSorted: number[] = [];
  private baseline: number | undefined;
  private sinceChange = 0;
  window: number;

  constructor(private readonly max: number) {
    this.window = max;
  }

  /** Records one call's response time; answers the change it causes, if any. */
  observe(ms: number): WindowChange | undefined {
    if (this.baseline === undefined) {
      this.first.push(ms);
      if (this.first.length === ADAPTIVE.sample) this.baseline = median([...this.first].sort((a, b) => a - b));
      return undefined;
    }
    this.recent.push(ms);
    this.recentSorted.splice(rank(this.recentSorted, ms), 0, ms);
    if (this.recent.length > ADAPTIVE.sample) this.recentSorted.splice(rank(this.recentSorted, this.recent.shift()!), 1);
    this.sinceChange++;
    if (this.recent.length < ADAPTIVE.sample || this.sinceChange < ADAPTIVE.sample) return undefined;
    const now = median(this.recentSorted);
    const base = Math.max(this.baseline, 1);
    if (now > ADAPTIVE.slowFactor * base && this.window > 1) {
      return this.change(
        Math.max(1, Math.floor(this.window / 2)),
        `the median response time of the last ${ADAPTIVE.sample} calls (${Math.round(now)} ms) is over ${ADAPTIVE.slowFactor} × that of the first ${ADAPTIVE.sample} (${Math.round(this.baseline)} ms)`,
      );
    }
    if (now <= ADAPTIVE.recoveredFactor * base && this.window < this.max) {
      return this.change(this.window + 1, `the site answers at its usual pace again (median ${Math.round(now)} ms, first ${ADAPTIVE.sample} calls ${Math.round(this.baseline)} ms)`);
    }
    return undefined;
  }

  /** The site asked for a pause (429 or 503 with Retry-After): one call at a time from now on, growing back as it recovers. */
  retryAfter(seconds: number, status: number | null): WindowChange | undefined {
    this.sinceChange = 0;
    if (this.window === 1) return undefined;
    return this.change(1, `the site answered ${status ?? "429"} with Retry-After: ${seconds} s`);
  }

  private change(concurrency: number, reason: string): WindowChange {
    this.window = concurrency;
    this.sinceChange = 0;
    return { reason, concurrency };
  }
}
