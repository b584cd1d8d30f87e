import { describe, expect, it } from "vitest";
import { createTrafficSourceBody } from "@/lib/traffic/schemas";
import { byteSize, EMPTY_DRAFT, percentText, scheduleText, sourceBody, topShare } from "./traffic-figures";

const row = (path: string, visits: number) => ({ path, url: `https://example.com${path}`, visits, sources: [] });

describe("sourceBody", () => {
  it("sends an uploaded log without a schedule, which the API would refuse", () => {
    const body = sourceBody({ ...EMPTY_DRAFT, name: "  " });
    expect(body).toEqual({ kind: "access_log" });
    expect(createTrafficSourceBody.safeParse(body).success).toBe(true);
  });

  it("sends a fetched log with its schedule, and an emptied schedule as on demand only", () => {
    expect(sourceBody({ ...EMPTY_DRAFT, name: " Edge ", url: " https://example.com/access.log " })).toEqual({
      kind: "access_log",
      name: "Edge",
      url: "https://example.com/access.log",
      read_every_hours: 24,
    });
    expect(sourceBody({ ...EMPTY_DRAFT, url: "https://example.com/access.log", everyHours: "" })).toMatchObject({ read_every_hours: null });
  });

  it("sends only the kind's own fields", () => {
    const draft = { ...EMPTY_DRAFT, url: "https://example.com/log", siteId: " example.com ", apiKey: " key ", propertyId: "123", serviceAccountKey: "{}" };
    expect(sourceBody({ ...draft, kind: "plausible" })).toEqual({ kind: "plausible", site_id: "example.com", api_key: "key", read_every_hours: 24 });
    expect(sourceBody({ ...draft, kind: "ga4" })).toEqual({ kind: "ga4", property_id: "123", service_account_key: "{}", read_every_hours: 24 });
  });

  it("lets the API's schema name what is missing", () => {
    const parsed = createTrafficSourceBody.safeParse(sourceBody({ ...EMPTY_DRAFT, kind: "ga4", propertyId: "G-123" }));
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["property_id", "service_account_key"]);
  });
});

describe("topShare", () => {
  it("is the first ten rows' visits over the table's", () => {
    const data = Array.from({ length: 20 }, (_, index) => row(`/${index}`, index < 10 ? 8 : 2));
    expect(topShare({ data, offset: 0, total_visits: 200 })).toEqual({ pages: 10, share: 0.4 });
  });

  it("counts the pages there are when fewer than ten", () => {
    expect(topShare({ data: [row("/", 3), row("/a", 1)], offset: 0, total_visits: 4 })).toEqual({ pages: 2, share: 1 });
  });

  it("says nothing away from the first page or without visits", () => {
    expect(topShare({ data: [row("/", 3)], offset: 20, total_visits: 40 })).toBeNull();
    expect(topShare({ data: [], offset: 0, total_visits: 0 })).toBeNull();
  });
});

describe("words", () => {
  it("says a schedule", () => {
    expect(scheduleText({ kind: "access_log", settings: {}, read_every_hours: null })).toBe("When a log is uploaded");
    expect(scheduleText({ kind: "plausible", settings: {}, read_every_hours: 24 })).toBe("Daily, and on demand");
    expect(scheduleText({ kind: "ga4", settings: {}, read_every_hours: 48 })).toBe("Every 2 days, and on demand");
    expect(scheduleText({ kind: "access_log", settings: { url: "https://example.com/log" }, read_every_hours: 1 })).toBe("Every 1 hour, and on demand");
    expect(scheduleText({ kind: "ga4", settings: {}, read_every_hours: null })).toBe("On demand only");
  });

  it("says shares and sizes", () => {
    expect(percentText(0.8123)).toBe("81 %");
    expect(percentText(0.0412)).toBe("4.1 %");
    expect(percentText(0)).toBe("0 %");
    expect(byteSize(512)).toBe("512 B");
    expect(byteSize(1_500_000)).toBe("1.5 MB");
    expect(byteSize(1_073_741_824)).toBe("1.1 GB");
  });
});
