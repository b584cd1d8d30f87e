import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOrCreateUser } from "@/lib/accounts/users";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { renderEmail } from "./render";
import { deliverEmail, queueRunReport } from "./send";
import type { RunReportProps } from "./templates/run-report";

const props: RunReportProps = {
  boostName: "Nightly",
  siteDomain: "shop.test",
  runId: 7,
  status: "done",
  statusMessage: null,
  startedAt: "2026-11-22T03:00:00.000Z",
  finishedAt: "2026-11-22T03:02:00.000Z",
  summary: { total_calls: 200, successful_calls: 190, failed_calls: 10, cache_hits: 80, average_response_time_ms: 123.4, pops: { CDG: 120, FRA: 70, AMS: 10 } },
  regions: ["fr", "de"],
  failureSamples: [{ url: "https://shop.test/broken", region: "fr", user_agent: "mobile", language: "fr-FR", status: 500, error: "HTTP 500" }],
  runUrl: "https://preheat.test/runs/7",
};

let handle: DatabaseHandle;
let accountId: number;
let status = 500;
let calls = 0;
let server: http.Server;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    calls++;
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(status === 200 ? { id: "re-1" } : { name: "internal_server_error", message: "down" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  handle = await openDatabase({ dataDir: "memory://" });
  accountId = (await findOrCreateUser(handle.db, "mail@example.com")).user.accountId;
});
afterAll(async () => {
  await handle?.close();
  await new Promise((resolve) => server.close(resolve));
});

describe("the run report", () => {
  it("renders the success rate, hit ratio, top PoPs, failure samples and the link", async () => {
    const email = await renderEmail("run-report", props);
    expect(email.subject).toBe('Boost "Nightly" on shop.test: done — 95% success, 40% cache hits');
    for (const expected of ["Success rate: 95%", "Cache-hit ratio: 40%", "123 ms", "CDG: 120 calls", "https://shop.test/broken", "HTTP 500"]) {
      expect(email.text).toContain(expected);
    }
    expect(email.html).toContain('href="https://preheat.test/runs/7"');
  });
});

describe("delivery through Resend", () => {
  it("records a failure for a retry, then gives up on the last attempt; never sends twice", async () => {
    Object.assign(process.env, { RESEND_API_KEY: "re_test", RESEND_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    try {
      const row = await queueRunReport(handle.db, { accountId, to: "mail@example.com", runId: 7, props });
      const again = await queueRunReport(handle.db, { accountId, to: "mail@example.com", runId: 7, props });
      expect(again.id).toBe(row.id);
      expect(row.status).toBe("pending");
      await expect(deliverEmail(handle.db, row.id, { final: false })).rejects.toThrow(/Resend refused/);
      status = 200;
      const sent = await deliverEmail(handle.db, row.id, { final: false });
      expect(sent).toMatchObject({ status: "sent", attempts: 2, providerId: "re-1" });
      await deliverEmail(handle.db, row.id, { final: true });
      expect(calls).toBe(2);

      status = 500;
      const other = await queueRunReport(handle.db, { accountId, to: "mail@example.com", runId: 8, props: { ...props, runId: 8 } });
      await expect(deliverEmail(handle.db, other.id, { final: true })).rejects.toThrow();
      const [failed] = await handle.db.query.emailOutbox.findMany({ where: (t, { eq }) => eq(t.id, other.id) });
      expect(failed).toMatchObject({ status: "failed", attempts: 1 });
      expect(failed!.lastError).toMatch(/down/);
    } finally {
      delete process.env.RESEND_API_KEY;
      delete process.env.RESEND_BASE_URL;
    }
  });
});
