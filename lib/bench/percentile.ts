/** The `p`th percentile (0 to 100) of `values`, in any order: the value at rank ⌊p × n / 100⌋ once sorted (100 gives the largest); 0 when there is none. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The mean of `values`, rounded to a whole number (ms in the benches' lines); 0 when there is none. */
export function roundedMean(values: readonly number[]): number {
  return values.length ? Math.round(values.reduce((sum, value) => sum + value, 0) / values.length) : 0;
}
