import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countFailure, forgive, secondsUntilAllowed, takePoint } from "@/lib/auth/rate-limit";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { mayEmailVisitor } from "./email-caps";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
});
afterAll(() => handle.close());

describe("budgets (in memory on the embedded database, in the rate_limits table on PostgreSQL)", () => {
  it("refuses failures past the budget until its window ends, one subject at a time", async () => {
    const budget = { name: "test-failures", points: 3, seconds: 60 };
    for (let i = 0; i < 3; i++) {
      expect(await secondsUntilAllowed(handle.db, budget, "a@example.com")).toBe(0);
      await countFailure(handle.db, budget, "a@example.com");
    }
    const wait = await secondsUntilAllowed(handle.db, budget, "a@example.com");
    expect(wait).toBeGreaterThan(55);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await secondsUntilAllowed(handle.db, budget, "b@example.com")).toBe(0);
    await forgive(handle.db, budget, "a@example.com");
    expect(await secondsUntilAllowed(handle.db, budget, "a@example.com")).toBe(0);
  });

  it("counts requests down and refuses the one past the budget", async () => {
    const budget = { name: "test-requests", points: 2, seconds: 60 };
    const first = await takePoint(handle.db, budget, "key:1");
    expect(first).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(first.resetSeconds).toBeGreaterThan(55);
    expect(await takePoint(handle.db, budget, "key:1")).toMatchObject({ allowed: true, remaining: 0 });
    expect(await takePoint(handle.db, budget, "key:1")).toMatchObject({ allowed: false, remaining: 0 });
    expect(await takePoint(handle.db, budget, "key:2")).toMatchObject({ allowed: true, remaining: 1 });
  });
});

describe("e-mails a signed-out visitor can have sent", () => {
  it("go out 5 times an hour to one address and 20 times for one client; a client over its cap spends no address's", async () => {
    const allowed = (to: string, client: string) => mayEmailVisitor(handle.db, { to, client, template: "sign-in-link" });
    for (let i = 0; i < 5; i++) expect(await allowed("Victim@Example.com", `192.0.2.${i}`)).toBe(true);
    expect(await allowed("victim@example.com", "192.0.2.9")).toBe(false);
    for (let i = 0; i < 20; i++) expect(await allowed(`spray-${i}@example.com`, "198.51.100.7")).toBe(true);
    expect(await allowed("other@example.com", "198.51.100.7")).toBe(false);
    // Refused for its client, other@ kept its own five.
    for (let i = 0; i < 5; i++) expect(await allowed("other@example.com", `203.0.113.${i}`)).toBe(true);
    expect(await allowed("other@example.com", "203.0.113.9")).toBe(false);
  });
});
