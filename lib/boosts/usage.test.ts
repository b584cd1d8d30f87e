import { describe, expect, it } from "vitest";
import { occurrencesBetween } from "./usage";

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
