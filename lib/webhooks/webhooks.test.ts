import type http from "node:http";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox, sites } from "@/drizzle/schema";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite } from "@/lib/sites/service";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { createWebhook, getWebhookRow, listDeliveries, testWebhook, updateWebhook } from "./service";

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
const received: Received[] = [];
/** How many times each receiver path has answered 500 before answering 200 (Infinity: always 500). */
const failuresBeforeSuccess = new Map<string, number>([
  ["/flaky", 1],
  ["/down", Number.POSITIVE_INFINITY],
]);
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
        const failures = received.filter((r) => r.path === path).length - 1;
        res.writeHead(failures < (failuresBeforeSuccess.get(path) ?? 0) ? 500 : 204).end();
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
    for (let i = 0; i < 3; i++) expect(await testWebhook(world.ctx, down.id)).toMatchObject({ event: "webhook.test", status_code: 500 });
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
});
