import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emailOutbox } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { reportProps } from "./fixtures";
import { deliverEmail, queueRunReport } from "./send";

type Received = { method?: string; path?: string; auth?: string; idempotencyKey?: string; body: { from: string; to: string | string[]; subject: string; html: string; text: string } };

/** A local stand-in for Resend's API: records what reaches it and answers with `answer`. */
let received: Received[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };
const fakeResend = http.createServer((req, res) => {
  let raw = "";
  req.on("data", (chunk) => (raw += chunk));
  req.on("end", () => {
    const idempotencyKey = req.headers["idempotency-key"];
    received.push({ method: req.method, path: req.url, auth: req.headers.authorization, idempotencyKey: typeof idempotencyKey === "string" ? idempotencyKey : undefined, body: JSON.parse(raw) });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
  });
});

/** Sets environment variables for one test and puts the previous values back, set or not. */
async function withEnv<T>(vars: Record<string, string | undefined>, run: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(vars);
  try {
    return await run();
  } finally {
    apply(previous);
  }
}

let handle: DatabaseHandle;
let accountId: number;
let resendEnv: Record<string, string>;
const to = "owner@example.com";
const report = (runId: number) => ({ accountId, to, runId, props: { ...reportProps, runId, runUrl: `https://preheat.test/runs/${runId}` } });
const row = async (id: number) => (await handle.db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!;

beforeAll(async () => {
  await new Promise<void>((resolve) => fakeResend.listen(0, "127.0.0.1", resolve));
  resendEnv = { RESEND_API_KEY: "re_test", RESEND_BASE_URL: `http://127.0.0.1:${(fakeResend.address() as AddressInfo).port}`, EMAIL_FROM: "Preheat <reports@preheat.test>" };
  handle = await openDatabase({ dataDir: "memory://" });
  accountId = (await findOrCreateUser(handle.db, to)).user.accountId;
});
afterAll(async () => {
  await handle?.close();
  await new Promise((resolve) => fakeResend.close(resolve));
});
beforeEach(() => {
  received = [];
  answer = { status: 200, body: {} };
});

describe("queueing a run report", () => {
  it("queues one e-mail per run, however often it is asked", async () => {
    await withEnv({ RESEND_API_KEY: undefined }, async () => {
      const [first, second] = await Promise.all([queueRunReport(handle.db, report(1)), queueRunReport(handle.db, report(1))]);
      const third = await queueRunReport(handle.db, { ...report(1), props: { ...report(1).props, boostName: "Renamed" } });
      expect(new Set([first.id, second.id, third.id]).size).toBe(1);
      expect(third.subject).toContain('"Nightly"');
      expect(await handle.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, "run-report:1"))).toHaveLength(1);
    });
  });

  it("keeps the e-mail in the outbox and sends nothing without RESEND_API_KEY", async () => {
    await withEnv({ ...resendEnv, RESEND_API_KEY: undefined }, async () => {
      const queued = await queueRunReport(handle.db, report(2));
      expect(queued).toMatchObject({ status: "outbox", toAddress: to, fromAddress: "Preheat <reports@preheat.test>", attempts: 0, sentAt: null });
      expect(queued.html).toContain("https://preheat.test/runs/2");
      expect(await deliverEmail(handle.db, queued.id, { final: true })).toMatchObject({ status: "outbox", attempts: 0 });
      expect(received).toHaveLength(0);
    });
  });
});

describe("delivery through Resend at RESEND_BASE_URL", () => {
  it("reaches Resend exactly once, with the sender, recipient and subject, and records the provider id", async () => {
    answer = { status: 200, body: { id: "re-3" } };
    await withEnv(resendEnv, async () => {
      const queued = await queueRunReport(handle.db, report(3));
      expect(queued.status).toBe("pending");
      const sent = await deliverEmail(handle.db, queued.id, { final: false });
      expect(sent).toMatchObject({ status: "sent", providerId: "re-3", attempts: 1, lastError: null });
      expect(sent!.sentAt).toBeInstanceOf(Date);
      // A repeated job (or a second end-of-run signal) finds it sent and sends nothing.
      await deliverEmail(handle.db, queued.id, { final: true });
      await queueRunReport(handle.db, report(3));
      expect(received).toHaveLength(1);
      const [request] = received;
      expect(request).toMatchObject({ method: "POST", path: "/emails", auth: "Bearer re_test" });
      expect(request!.idempotencyKey).toMatch(/^run-report:3\/\d+$/);
      expect(request!.body).toMatchObject({ from: "Preheat <reports@preheat.test>", to, subject: 'Boost "Nightly" on shop.test: done — 98% success, 40% cache hits' });
      expect(request!.body.html).toContain('href="https://preheat.test/runs/3"');
      expect(request!.body.text).toContain("98%");
    });
  });

  it("keeps a refused e-mail pending for the next attempt, and marks it failed on the last one", async () => {
    answer = { status: 500, body: { statusCode: 500, name: "internal_server_error", message: "Resend is down" } };
    await withEnv(resendEnv, async () => {
      const queued = await queueRunReport(handle.db, report(4));
      await expect(deliverEmail(handle.db, queued.id, { final: false })).rejects.toThrow(/Resend refused the e-mail \(500 internal_server_error\): Resend is down/);
      expect(await row(queued.id)).toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringMatching(/Resend is down/), providerId: null });
      await expect(deliverEmail(handle.db, queued.id, { final: true })).rejects.toThrow(/Resend is down/);
      expect(await row(queued.id)).toMatchObject({ status: "failed", attempts: 2, sentAt: null });
      await deliverEmail(handle.db, queued.id, { final: true }); // failed for good: not tried again
      expect(received).toHaveLength(2);
      expect(new Set(received.map((r) => r.idempotencyKey)).size).toBe(1); // every attempt is the same e-mail
    });
  });

  it("records an unreachable Resend like a refusal", async () => {
    await withEnv({ ...resendEnv, RESEND_BASE_URL: "http://127.0.0.1:9" }, async () => {
      const queued = await queueRunReport(handle.db, report(5));
      await expect(deliverEmail(handle.db, queued.id, { final: false })).rejects.toThrow(/Resend refused/);
      expect(await row(queued.id)).toMatchObject({ status: "pending", attempts: 1 });
    });
  });

  it("puts a pending e-mail back in the outbox when RESEND_API_KEY has been removed since", async () => {
    const queued = await withEnv(resendEnv, () => queueRunReport(handle.db, report(6)));
    await withEnv({ RESEND_API_KEY: undefined }, async () => {
      expect(await deliverEmail(handle.db, queued.id, { final: false })).toMatchObject({ status: "outbox", attempts: 0 });
      expect(received).toHaveLength(0);
    });
  });
});
