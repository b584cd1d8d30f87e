import { describe, expect, it } from "vitest";
import { quotaShare } from "./quota-share";

describe("a month's calls against the quota, in words", () => {
  it("says how many times the quota above it, rounded to what a reader keeps", () => {
    expect(quotaShare(2_100_000, 100_000)).toEqual({ over: true, words: "21 times" });
    expect(quotaShare(2_449_000, 100_000)).toEqual({ over: true, words: "24 times" });
    expect(quotaShare(250_000, 100_000)).toEqual({ over: true, words: "2.5 times" });
    expect(quotaShare(150_000, 100_000)).toEqual({ over: true, words: "1.5 times" });
    // Never "1 times" for a figure above the quota.
    expect(quotaShare(100_001, 100_000)).toEqual({ over: true, words: "1.01 times" });
  });

  it("says the share below it", () => {
    expect(quotaShare(30_000, 100_000)).toEqual({ over: false, words: "30 % of" });
    expect(quotaShare(100_000, 100_000)).toEqual({ over: false, words: "100 % of" });
    expect(quotaShare(2_500, 100_000)).toEqual({ over: false, words: "2.5 % of" });
    expect(quotaShare(30, 100_000)).toEqual({ over: false, words: "less than 0.1 % of" });
    expect(quotaShare(0, 100_000)).toEqual({ over: false, words: "0 % of" });
  });
});
