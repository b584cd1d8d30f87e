/**
 * A month's calls against the monthly quota, in words, for the Usage page and the boost form alike:
 * `over` and "24 times" (rounded to what a reader keeps: whole numbers from 10, one decimal from 2,
 * two below, never down to "1 times"), or "30 % of" (a decimal below 10 %).
 * Followed by "your quota…" where it is shown.
 */
export function quotaShare(calls: number, quota: number): { over: boolean; words: string } {
  if (quota <= 0) return { over: calls > 0, words: calls > 0 ? "more than" : "none of" };
  const ratio = calls / quota;
  if (ratio > 1) {
    const times = ratio >= 10 ? Math.round(ratio) : ratio >= 2 ? Math.round(ratio * 10) / 10 : Math.ceil(ratio * 100) / 100;
    return { over: true, words: `${times.toLocaleString("en")} times` };
  }
  const percent = ratio * 100;
  if (percent > 0 && percent < 0.1) return { over: false, words: "less than 0.1 % of" };
  return { over: false, words: `${percent >= 10 ? Math.round(percent) : Math.round(percent * 10) / 10} % of` };
}
