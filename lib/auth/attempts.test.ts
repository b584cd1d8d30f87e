import { describe, expect, it } from "vitest";
import { AttemptLimiter } from "./attempts";

describe("AttemptLimiter", () => {
  it("refuses after the limit within the window, and lets the oldest failure age out", () => {
    const limiter = new AttemptLimiter(3, 60_000);
    for (const at of [0, 10_000, 20_000]) {
      expect(limiter.retryAfterSeconds("a@example.com", at)).toBe(0);
      limiter.record("a@example.com", at);
    }
    expect(limiter.retryAfterSeconds("a@example.com", 30_000)).toBe(30);
    expect(limiter.retryAfterSeconds("b@example.com", 30_000)).toBe(0);
    expect(limiter.retryAfterSeconds("a@example.com", 60_000)).toBe(0);
  });

  it("forgets a key's failures once it succeeds", () => {
    const limiter = new AttemptLimiter(1, 60_000);
    limiter.record("k", 0);
    expect(limiter.retryAfterSeconds("k", 1)).toBe(60);
    limiter.clear("k");
    expect(limiter.retryAfterSeconds("k", 1)).toBe(0);
  });
});
