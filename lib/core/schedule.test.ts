import { describe, expect, it } from "vitest";
import { checkCron, nextRunAt, nextRunTimes, occurrencesBetween } from "./schedule";

describe("checkCron", () => {
  it("accepts 5-field expressions and normalises spacing", () => {
    expect(checkCron(" 0  3 * * 1-5 ")).toEqual({ expression: "0 3 * * 1-5" });
    expect(checkCron("*/15 * * * *")).toEqual({ expression: "*/15 * * * *" });
  });

  it.each(["* * * *", "0 0 3 * * *", "61 * * * *", "0 25 * * *", "nonsense", ""])("refuses %j", (expression) => {
    expect(checkCron(expression)).toHaveProperty("problem");
  });
});

describe("checkCron refuses a schedule that can never fire, saying why", () => {
  it.each([
    ["31 April", "0 0 31 4 *", "never fires (no date matches: April has 30 days)"],
    ["30 February", "0 0 30 2 *", "never fires (no date matches: February has 29 days at most)"],
    ["31 February", "15 6 31 2 *", "never fires (no date matches: February has 29 days at most)"],
    ["the 30th or 31st of February", "0 0 30,31 2 *", "never fires (no date matches: February has 29 days at most)"],
    ["31 June, by the month's name", "0 0 31 JUN *", "never fires (no date matches: June has 30 days)"],
    ["the 31st of every 30-day month", "0 12 31 4,6,9,11 *", "never fires (no date matches: April, June, September and November have 30 days)"],
    ["the 31st of a range stepping over 30-day months", "0 0 31 4-6/2 *", "never fires (no date matches: April and June have 30 days)"],
    ["the 31st of February and April", "*/5 * 31 2,4 *", "never fires (no date matches: February has 29 days at most, and April has 30 days)"],
  ])("%s (%s)", (_label, expression, problem) => {
    expect(checkCron(expression)).toEqual({ problem });
  });

  it.each([
    ["29 February, in leap years", "0 0 29 2 *"],
    ["the 31st of every month that has one", "0 0 31 * *"],
    ["30 February or any Monday (day-of-month OR day-of-week)", "0 0 30 2 1"],
    ["the last day of February", "0 0 L 2 *"],
  ])("accepts %s", (_label, expression) => {
    expect(checkCron(expression)).toEqual({ expression });
    expect(nextRunAt(expression)).toBeInstanceOf(Date);
  });
});

describe("checkCron spells a macro as the cron it stands for", () => {
  it.each([
    ["@hourly", "0 * * * *"],
    ["@daily", "0 0 * * *"],
    ["@midnight", "0 0 * * *"],
    ["@weekly", "0 0 * * 0"],
    ["@monthly", "0 0 1 * *"],
    ["@yearly", "0 0 1 1 *"],
    ["@annually", "0 0 1 1 *"],
  ])("%s is %s", (macro, cron) => {
    expect(checkCron(macro)).toEqual({ expression: cron });
    expect(checkCron(` ${macro.toUpperCase()} `)).toEqual({ expression: cron });
  });

  it("fires when its cron fires", () => {
    const after = new Date("2026-11-22T10:30:00Z"); // a Sunday
    const next = (macro: string) => nextRunAt((checkCron(macro) as { expression: string }).expression, after)?.toISOString();
    expect(next("@hourly")).toBe("2026-11-22T11:00:00.000Z");
    expect(next("@daily")).toBe("2026-11-23T00:00:00.000Z");
    expect(next("@weekly")).toBe("2026-11-29T00:00:00.000Z");
    expect(next("@monthly")).toBe("2026-12-01T00:00:00.000Z");
    expect(next("@yearly")).toBe("2027-01-01T00:00:00.000Z");
  });

  it.each(["@reboot", "@every 5m", "@", "@daily 3"])("refuses %j, naming the macros it knows", (macro) => {
    expect(checkCron(macro)).toEqual({ problem: expect.stringContaining("@hourly, @daily, @midnight, @weekly, @monthly, @yearly, @annually") });
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

describe("occurrencesBetween", () => {
  it("counts a schedule's firings strictly after a moment and before the end", () => {
    const after = new Date("2026-11-25T00:30:00Z");
    const end = new Date("2026-12-01T00:00:00Z");
    // Every hour from 01:00 on the 25th to 23:00 on the 30th.
    expect(occurrencesBetween("0 * * * *", after, end)).toBe(6 * 24 - 1);
    // Every 15 minutes, 9:00 to 17:45, on weekdays: the 25th to the 27th and the 30th (Wednesday to Friday, Monday).
    expect(occurrencesBetween("*/15 9-17 * * 1-5", after, end)).toBe(4 * 9 * 4);
    expect(occurrencesBetween("0 3 1 1 *", after, end)).toBe(0);
  });

  it("counts past a thousand firings (a schedule of every minute)", () => {
    expect(occurrencesBetween("* * * * *", new Date("2026-11-01T00:00:00Z"), new Date("2026-11-02T00:00:00Z"))).toBe(24 * 60 - 1);
  });
});
