/**
 * Numbers read from the environment: a value that is not one (or not positive) falls back to the
 * default. Issue 15 replaces this with one validated configuration module.
 */
export function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** envNumber for whole numbers. */
export function envInteger(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
