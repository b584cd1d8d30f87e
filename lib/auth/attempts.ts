/**
 * Attempts per key (an e-mail address, a client address as lib/server/client-address.ts finds it)
 * over a sliding window, in this process: enough to make guessing passwords slow. Several servers
 * each keep their own.
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const kept = (this.failures.get(key) ?? []).filter((at) => now - at < this.windowMs);
    if (kept.length) this.failures.set(key, kept);
    else this.failures.delete(key);
    return kept;
  }

  /** Seconds until `key` may try again, or 0 when it may now. */
  retryAfterSeconds(key: string, now = Date.now()): number {
    const recent = this.recent(key, now);
    if (recent.length < this.limit) return 0;
    return Math.ceil((recent[recent.length - this.limit]! + this.windowMs - now) / 1000);
  }

  record(key: string, now = Date.now()): void {
    this.failures.set(key, [...this.recent(key, now), now]);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}

const WINDOW_MS = 15 * 60_000;
type Limits = { byEmail: AttemptLimiter; byClient: AttemptLimiter; signUps: AttemptLimiter };
type Global = typeof globalThis & { __preheatSignInLimits?: Limits };

/** 10 failed passwords per address and 50 per client in 15 minutes; 20 sign-ups per client an hour. */
export function signInLimits(): Limits {
  const g = globalThis as Global;
  g.__preheatSignInLimits ??= { byEmail: new AttemptLimiter(10, WINDOW_MS), byClient: new AttemptLimiter(50, WINDOW_MS), signUps: new AttemptLimiter(20, 60 * 60_000) };
  return g.__preheatSignInLimits;
}
