import { describe, expect, it } from "vitest";
import { checkCron, nextRunAt, nextRunTimes } from "./schedule";

describe("checkCron", () => {
  it("accepts 5-field expressions and normalises spacing", () => {
    expect(checkCron(" 0  3 * * 1-5 ")).toEqual({ expression: "0 3 * * 1-5" });
    expect(checkCron("*/15 * * * *")).toEqual({ expression: "*/15 * * * *" });
  });

  it.each(["* * * *", "0 0 3 * * *", "61 * * * *", "0 25 * * *", "nonsense", ""])("refuses %j", (expression) => {
    expect(checkCron(expression)).toHaveProperty("problem");
  });
});

describe("next runs", () => {
  it("are computed in UTC", () => {
    const after = new Date("2026-11-22T10:00:00Z");
    expect(nextRunAt("0 3 * * *", after)?.toISOString()).toBe("2026-11-23T03:00:00.000Z");
    expect(nextRunTimes("30 */6 * * *", 3, after).map((d) => d.toISOString())).toEqual(["2026-11-22T12:30:00.000Z", "2026-11-22T18:30:00.000Z", "2026-11-23T00:30:00.000Z"]);
  });

  it("follow classic cron when both day fields are set (either matches)", () => {
    const after = new Date("2026-11-22T00:00:00Z"); // a Sunday
    expect(nextRunAt("0 0 1 * 1", after)?.toISOString()).toBe("2026-11-23T00:00:00.000Z");
  });

  it("are null without a schedule", () => {
    expect(nextRunAt(null)).toBeNull();
  });
});
