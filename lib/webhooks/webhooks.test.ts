import type http from "node:http";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox, sites, webhookMessages } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import type { AccountContext } from "@/lib/context";
import { ConflictError, ForbiddenError, TooManyRequestsError } from "@/lib/core/errors";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite } from "@/lib/sites/service";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { deliverMessage, deliverTest } from "./deliver";
import { receiverOf } from "./receiver";
import { createWebhook, deleteWebhook, getWebhookRow, listDeliveries, listWebhooks, testWebhook, updateWebhook } from "./service";

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
const received: Received[] = [];
/** How many times each receiver path has answered 500 before answering 200 (Infinity: always 500). */
const failuresBeforeSuccess = new Map<string, number>([
  ["/flaky", 1],
  ["/down", Number.POSITIVE_INFINITY],
  ["/never", Number.POSITIVE_INFINITY],
]);
/** Receiver paths that answer 204 this many times, then 500 for ever. */
const successesBeforeFailure = new Map<string, number>([["/answered-once", 1]]);
let world: LocalWorld;

beforeAll(async () => {
  process.env.PREHEAT_JOBS_POLL_SECONDS = "0.5";
  process.env.PREHEAT_WEBHOOK_RETRY_BASE_SECONDS = "1";
  process.env.PREHEAT_WEBHOOK_DISABLE_AFTER = "3";
  world = await startLocalWorld(
    (req, res) => {
      if (req.url === "/sitemap.xml") return void res.writeHead(200, { "content-type": "application/xml" }).end(`<urlset><url><loc>http://${req.headers.host}/a</loc></url></urlset>`);
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const path = req.url ?? "";
        received.push({ path, headers: req.headers, body });
        const earlier = received.filter((r) => r.path === path).length - 1;
        const succeeded = successesBeforeFailure.has(path) ? earlier < successesBeforeFailure.get(path)! : earlier >= (failuresBeforeSuccess.get(path) ?? 0);
        res.writeHead(succeeded ? 204 : 500).end();
      });
    },
    { email: "webhooks@example.com", work: true },
  );
}, 60_000);

afterAll(async () => {
  await world?.stop();
  delete process.env.PREHEAT_WEBHOOK_RETRY_BASE_SECONDS;
  delete process.env.PREHEAT_WEBHOOK_DISABLE_AFTER;
});

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Reads a sitemap through the job queue: its end is announced to the account's webhooks. */
async function processASitemap(domain: string) {
  const site = await createSite(world.ctx, { domain });
  await world.handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
  return addSitemap(world.ctx, site.id, { url: `http://${domain}/sitemap.xml` });
}

describe("webhooks", () => {
  it("deliver each event once, signed per Standard Webhooks, and retry after a 500 with the same webhook-id", async () => {
    const ok = await createWebhook(world.ctx, { url: "http://hooks.test/ok", events: ["sitemap.processed"], format: "standard" });
    const flaky = await createWebhook(world.ctx, { url: "http://hooks.test/flaky", events: ["sitemap.processed", "run.completed"], format: "standard" });
    const sitemap = await processASitemap("signed.test");
    const okDelivery = await until(() => received.find((r) => r.path === "/ok"));
    const event = new Webhook(ok.secret).verify(okDelivery.body, okDelivery.headers as Record<string, string>) as { type: string; data: { id: number; status: string } };
    expect(event).toMatchObject({ type: "sitemap.processed", data: { id: sitemap.id, status: "done", url_count: 1 } });
    expect(okDelivery.headers["webhook-signature"]).toMatch(/^v1,/);

    const retried = await until(() => {
      const attempts = received.filter((r) => r.path === "/flaky");
      return attempts.length >= 2 ? attempts : undefined;
    });
    expect(retried[0]!.headers["webhook-id"]).toBe(retried[1]!.headers["webhook-id"]);
    expect(() => new Webhook(flaky.secret).verify(retried[1]!.body, retried[1]!.headers as Record<string, string>)).not.toThrow();
    // Another's secret does not verify it.
    expect(() => new Webhook(ok.secret).verify(retried[1]!.body, retried[1]!.headers as Record<string, string>)).toThrow();
    const deliveries = await listDeliveries(world.ctx, flaky.id, { limit: 10, offset: 0 });
    expect(deliveries.data.map((d) => [d.attempt, d.status_code])).toEqual([
      [2, 204],
      [1, 500],
    ]);
    expect(deliveries.data[1]!.error).toContain("500");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(received.filter((r) => r.path === "/ok")).toHaveLength(1);
    expect(received.filter((r) => r.path === "/flaky")).toHaveLength(2);
  });

  it("never reach an address the guard refuses, and do not retry it", async () => {
    const guarded = await createWebhook(world.ctx, { url: `http://127.0.0.1:${world.port}/private`, events: ["sitemap.processed"], format: "standard" });
    await processASitemap("guarded.test");
    const [delivery] = await until(async () => {
      const page = await listDeliveries(world.ctx, guarded.id, { limit: 10, offset: 0 });
      return page.total ? page.data : undefined;
    });
    expect(delivery).toMatchObject({ attempt: 1, status_code: null, error: expect.stringContaining("refused to connect") });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await listDeliveries(world.ctx, guarded.id, { limit: 10, offset: 0 })).total).toBe(1);
    expect(received.some((r) => r.path === "/private")).toBe(false);
  });

  it("post a Slack message with a link to a Slack-format webhook", async () => {
    await createWebhook(world.ctx, { url: "http://hooks.test/slack", events: ["sitemap.processed"], format: "slack" });
    await processASitemap("slack.test");
    const message = await until(() => received.find((r) => r.path === "/slack"));
    expect(message.headers["webhook-signature"]).toBeUndefined();
    expect(JSON.parse(message.body).text).toMatch(/^Preheat: sitemap http:\/\/slack\.test\/sitemap\.xml processed: 1 URL\. <http.*\/sites\/\d+\|Open the site>$/);
  });

  it("are disabled after PREHEAT_WEBHOOK_DISABLE_AFTER failed attempts in a row, and the owner is told by e-mail", async () => {
    const down = await createWebhook(world.ctx, { url: "http://hooks.test/down", events: ["run.failed"], format: "standard" });
    // Sent as the test operation sends them, without its limit of one every 10 s.
    for (let i = 0; i < 3; i++) expect(await deliverTest(world.handle.db, await getWebhookRow(world.ctx, down.id))).toMatchObject({ event: "webhook.test", statusCode: 500 });
    const disabled = await getWebhookRow(world.ctx, down.id);
    expect(disabled).toMatchObject({ enabled: false, consecutiveFailures: 3 });
    expect(disabled.disabledReason).toContain("3 consecutive failed deliveries");
    const emails = await world.handle.db.select().from(emailOutbox).where(eq(emailOutbox.template, "webhook-disabled"));
    expect(emails).toHaveLength(1);
    expect(emails[0]!.toAddress).toBe("webhooks@example.com");
    expect(emails[0]!.subject).toContain("hooks.test");
    // Enabled again: the count starts afresh.
    expect(await updateWebhook(world.ctx, down.id, { enabled: true })).toMatchObject({ enabled: true, disabled_reason: null, consecutive_failures: 0 });
  });

  it("take one test event every 10 s per webhook", async () => {
    const hook = await createWebhook(world.ctx, { url: "http://hooks.test/tested", events: ["run.failed"], format: "standard" });
    const other = await createWebhook(world.ctx, { url: "http://hooks.test/tested-too", events: ["run.failed"], format: "standard" });
    expect(await testWebhook(world.ctx, hook.id)).toMatchObject({ event: "webhook.test", status_code: 204 });
    const refused = await testWebhook(world.ctx, hook.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((refused as TooManyRequestsError).retryAfterSeconds).toBeLessThanOrEqual(10);
    expect((refused as Error).message).toMatch(/^A webhook takes one test event every 10 s: try again in \d+ s\.$/);
    // The refused one was not sent; another webhook has its own 10 s.
    expect(received.filter((r) => r.path === "/tested")).toHaveLength(1);
    expect(await testWebhook(world.ctx, other.id)).toMatchObject({ status_code: 204 });
  });

  it("retry an event 3 times only until the receiver has answered 2xx once, then on the whole schedule", async () => {
    const previous = process.env.PREHEAT_WEBHOOK_DISABLE_AFTER;
    process.env.PREHEAT_WEBHOOK_DISABLE_AFTER = "20"; // disabling is not the subject here
    try {
      /** Attempts a new message to `webhookId` `times` times, as the job engine would, never as its final attempt. */
      const attempt = async (webhookId: number, times: number) => {
        const [message] = await world.handle.db
          .insert(webhookMessages)
          .values({ webhookId, event: "run.failed", eventKey: `run.failed:retries:${webhookId}:${Date.now()}`, payload: { type: "run.failed", timestamp: new Date().toISOString(), data: {} } })
          .returning();
        const results = [];
        for (let i = 0; i < times; i++) results.push(await deliverMessage(world.handle.db, message!.id, { final: false }));
        return results;
      };
      const never = await createWebhook(world.ctx, { url: "http://hooks.test/never", events: ["run.failed"], format: "standard" });
      expect(await attempt(never.id, 5)).toEqual(["retry", "retry", "retry", "failed", "skipped"]);
      expect(received.filter((r) => r.path === "/never")).toHaveLength(4);

      const answered = await createWebhook(world.ctx, { url: "http://hooks.test/answered-once", events: ["run.failed"], format: "standard" });
      expect(await attempt(answered.id, 1)).toEqual(["delivered"]);
      expect(await attempt(answered.id, 6)).toEqual(Array(6).fill("retry"));
    } finally {
      process.env.PREHEAT_WEBHOOK_DISABLE_AFTER = previous;
    }
  });
});

describe("an account's webhooks", () => {
  let account: AccountContext;
  const hook = (url: string) => createWebhook(account, { url, events: ["run.completed"], format: "standard" });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as Error & { code?: string },
    );

  beforeAll(async () => {
    const { user } = await findOrCreateUser(world.handle.db, "many-webhooks@example.com");
    account = { db: world.handle.db, accountId: user.accountId };
  });

  it("compare URLs as receivers: scheme and host case, default port, credentials, fragment and a bare host's slash aside", () => {
    expect(receiverOf("HTTPS://Hooks.Example.COM")).toBe(receiverOf("https://hooks.example.com/"));
    expect(receiverOf("https://hooks.example.com:443/x?a=1")).toBe(receiverOf("https://user:secret@hooks.example.com/x?a=1#top"));
    expect(receiverOf("http://hooks.example.com:80/")).toBe(receiverOf("http://hooks.example.com"));
    expect(receiverOf("https://hooks.example.com/x?a=1")).not.toBe(receiverOf("https://hooks.example.com/x?a=2"));
    expect(receiverOf("https://hooks.example.com/x")).not.toBe(receiverOf("https://hooks.example.com/x/"));
    expect(receiverOf("https://hooks.example.com/X")).not.toBe(receiverOf("https://hooks.example.com/x"));
    expect(receiverOf("http://hooks.example.com/")).not.toBe(receiverOf("https://hooks.example.com/"));
    expect(receiverOf("https://hooks.example.com:8443/")).not.toBe(receiverOf("https://hooks.example.com/"));
  });

  it("are one per URL: a second one, or a change to another's URL, is a 409 duplicate_webhook", async () => {
    const first = await hook("https://receiver.example.com");
    const again = await refusal(hook("HTTPS://Receiver.Example.com:443/"));
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({ code: "duplicate_webhook", message: "This account already has a webhook to HTTPS://Receiver.Example.com:443/: change that one instead." });
    const second = await hook("https://receiver.example.com/?channel=deploys");
    const moved = await refusal(updateWebhook(account, second.id, { url: "https://receiver.example.com/" }));
    expect(moved).toMatchObject({ code: "duplicate_webhook" });
    expect((await getWebhookRow(account, second.id)).url).toBe("https://receiver.example.com/?channel=deploys");
    // Its own URL again, or another account's URL, is no duplicate.
    expect(await updateWebhook(account, first.id, { url: "https://receiver.example.com/", description: "Same" })).toMatchObject({ url: "https://receiver.example.com/" });
    expect(await createWebhook(world.ctx, { url: "https://receiver.example.com", events: ["run.failed"], format: "standard" })).toMatchObject({ id: expect.any(Number) });
    // Another account's webhook is not found, whatever the URL asked for.
    await expect(updateWebhook(world.ctx, second.id, { url: "https://elsewhere.example.com/" })).rejects.toThrow("Webhook not found.");
    await Promise.all([first.id, second.id].map((id) => deleteWebhook(account, id)));
  });

  it("are PREHEAT_WEBHOOKS_PER_ACCOUNT at most (10), even when created at once", async () => {
    for (let i = 1; i <= 8; i++) await hook(`https://limit.example.com/${i}`);
    const racing = await Promise.allSettled([hook("https://limit.example.com/9"), hook("https://limit.example.com/10"), hook("https://limit.example.com/11")]);
    expect(racing.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    const [refused] = racing.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect(refused).toMatchObject({ code: "webhook_limit", message: "An account has at most 10 webhooks: delete one first." });
    expect((await listWebhooks(account, { limit: 100, offset: 0 })).total).toBe(10);
    // Two at once to one URL: one is made.
    const [last] = (await listWebhooks(account, { limit: 1, offset: 0 })).data;
    await deleteWebhook(account, last!.id);
    const same = await Promise.allSettled([hook("https://limit.example.com/same"), hook("https://limit.example.com/same")]);
    expect(same.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await refusal(hook("https://limit.example.com/12"))).toMatchObject({ code: "webhook_limit" });
  });
});
