import { describe, expect, it } from "vitest";
import { BLOCKED_STOP, judgeBlocked, mainVendor } from "./blocked";

const ones = (n: number) => "1".repeat(n);
const zeros = (n: number) => "0".repeat(n);

describe("the early stop on blocked calls", () => {
  it("stops as soon as 20 of the first 30 calls are blocked", () => {
    expect(BLOCKED_STOP).toEqual({ firstCalls: 30, blocked: 20 });
    expect(judgeBlocked({ calls: 19, blocked: 19 }, ones(19))).toEqual({ stop: false, judged: false, blocked: 19, calls: 19 });
    expect(judgeBlocked({ calls: 20, blocked: 20 }, ones(1))).toEqual({ stop: true, judged: true, blocked: 20, calls: 20 });
    // 10 that got through, then 20 blocked: still 20 of the first 30.
    expect(judgeBlocked({ calls: 30, blocked: 20 }, zeros(10) + ones(20))).toEqual({ stop: true, judged: true, blocked: 20, calls: 30 });
  });

  it("reads only the first 30, however many one recording brings", () => {
    // 11 got through among the first 30: the 50 blocked after them do not count.
    expect(judgeBlocked({ calls: 80, blocked: 69 }, zeros(11) + ones(69))).toEqual({ stop: false, judged: true, blocked: 19, calls: 30 });
    // Recordings before this one brought 25 calls, 18 blocked; this one brings 10, the first 5 of which count.
    expect(judgeBlocked({ calls: 35, blocked: 25 }, ones(2) + zeros(3) + ones(5))).toEqual({ stop: true, judged: true, blocked: 20, calls: 30 });
    expect(judgeBlocked({ calls: 35, blocked: 20 }, zeros(2) + ones(8))).toEqual({ stop: false, judged: true, blocked: 15, calls: 30 });
  });

  it("never judges again once the first 30 are in", () => {
    expect(judgeBlocked({ calls: 130, blocked: 100 }, ones(100))).toMatchObject({ stop: false, judged: true });
  });

  it("names the vendor that blocked most", () => {
    expect(mainVendor({})).toBeNull();
    expect(mainVendor({ other: 3, cloudflare: 5 })).toBe("cloudflare");
    expect(mainVendor({ akamai: 2, cloudflare: 2 })).toBe("cloudflare");
  });
});
