import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emailOutbox } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { NotFoundError } from "@/lib/core/errors";
import { everyTemplate, reportProps } from "./fixtures";
import { emailsForOperator, getOutboxEmail, listOutbox } from "./outbox";
import { type TemplateName, templateSecrets } from "./render";
import { deliverEmail, queueEmail, queueRunReport, sendNow } from "./send";

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

describe("e-mails that carry a secret", () => {
  const names = Object.keys(templateSecrets) as TemplateName[];
  const secretNames = names.filter((name) => templateSecrets[name]);

  it("are named in the one table of templates: every link that signs in, proves an address or joins", () => {
    expect(secretNames.sort()).toEqual(["email-change-confirmation", "invitation", "sign-in-link", "sign-up-confirmation", "sign-up-existing"]);
  });

  /** Every template sent to `addressee`, each with a token of its own in its link; what the tokens are. */
  async function sendEveryTemplate(addressee: string, label: string) {
    const tokens: string[] = [];
    for (const name of names) {
      const token = `tok${label}${name.replace(/-/g, "")}${crypto.randomUUID().replace(/-/g, "")}`;
      tokens.push(token);
      await sendNow(handle.db, { accountId, dedupeKey: `${label}:${name}:${crypto.randomUUID()}`, to: addressee, template: name, props: everyTemplate(token)[name] });
    }
    return tokens;
  }

  /** Everything another user could read of the e-mails: the list, each e-mail by id, the operator console. */
  async function readableBy(email: string, ids: number[]) {
    const seen: unknown[] = [await listOutbox({ db: handle.db, email }, { limit: 100, offset: 0 })];
    for (const id of ids) seen.push(await getOutboxEmail({ db: handle.db, email }, id).catch((error) => (error instanceof NotFoundError ? "404" : error)));
    return JSON.stringify(seen);
  }

  it("without a transport: only the addressee reads them; another member, another organization and the operator's console see no token", async () => {
    await withEnv({ RESEND_API_KEY: undefined }, async () => {
      const addressee = "addressee@example.com";
      const tokens = await sendEveryTemplate(addressee, "outbox");
      const rows = await handle.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, addressee));
      expect(rows.map((row) => row.template).sort()).toEqual([...names].sort());
      const ids = rows.map((row) => row.id);
      // The addressee reads every e-mail, its links whole.
      const own = await readableBy(addressee, ids);
      for (const [i, name] of names.entries()) if (templateSecrets[name]) expect(own).toContain(tokens[i]);
      for (const other of [to, "member@example.com", "someone-else@example.org"]) {
        const seen = await readableBy(other, ids);
        for (const token of tokens) expect(seen).not.toContain(token);
        expect(seen.match(/"404"/g)).toHaveLength(ids.length);
      }
      const console = await emailsForOperator(handle.db, { email: "operator@example.com" }, addressee, 100);
      for (const [i, name] of names.entries()) {
        const shown = console.find((email) => email.template === name)!;
        if (templateSecrets[name])
          expect(shown.text).toBe(
            `This e-mail carries a one-time link for ${addressee} only, so the console does not show it. Where the database is, \`npm run cli -- emails --to ${addressee}\` prints it.`,
          );
        else expect(shown.text).toBe(rows.find((row) => row.template === name)!.text);
        expect(JSON.stringify(shown)).not.toContain(tokens[i]);
      }
    });
  });

  it("through Resend: the e-mail sent has its link whole, the stored copy and every view of it no usable token", async () => {
    answer = { status: 200, body: { id: "re-secret" } };
    await withEnv(resendEnv, async () => {
      const addressee = "sent-to@example.com";
      const tokens = await sendEveryTemplate(addressee, "resend");
      expect(received).toHaveLength(names.length);
      for (const [i, name] of names.entries()) if (templateSecrets[name]) expect(received[i]!.body.text).toContain(tokens[i]);
      const rows = await handle.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, addressee));
      expect(rows.every((row) => row.status === "sent")).toBe(true);
      const stored = JSON.stringify(rows);
      const seen = await readableBy(
        addressee,
        rows.map((row) => row.id),
      );
      for (const [i, name] of names.entries()) {
        if (!templateSecrets[name]) continue;
        expect(stored).not.toContain(tokens[i]);
        expect(seen).not.toContain(tokens[i]);
      }
      const signIn = rows.find((row) => row.template === "sign-in-link")!;
      expect(signIn.text).toContain("token=sent");
    });
  });

  it("are never queued to be sent later from a stored copy", async () => {
    await withEnv(resendEnv, async () => {
      await expect(queueEmail(handle.db, { accountId, dedupeKey: "queued-secret", to, template: "sign-in-link", props: everyTemplate("x")["sign-in-link"] })).rejects.toThrow(/sendNow/);
    });
  });
});
