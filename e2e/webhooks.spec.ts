import { expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/emails";
import { originUrl } from "./support/ports";

/**
 * Webhooks and deploy hooks, in one browser, in order. The receiver's host, like every host here,
 * is reached through PREHEAT_CONNECT_TO at the local origin, which knows nothing of it and answers
 * 404: the test event is a failed delivery, and the origin's log shows that it did arrive.
 */
test.describe.configure({ mode: "serial" });

const owner = { email: `hooks-${Date.now()}@example.com`, password: "correct horse battery" };
const receiver = "http://hooks.test/receiver";
const domain = `hooked-${Date.now().toString(36)}.test`;

let page: Page;
let webhookUrl = "";

/** A call to the dashboard's API with the page's session, as the dashboard itself makes it. */
async function dashboardPost<T>(path: string, data: unknown): Promise<T> {
  const response = await page.request.post(`/api/v1${path}`, { headers: { "x-preheat-dashboard": "1" }, data });
  expect(response.status(), path).toBe(201);
  return (await response.json()) as T;
}

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
});
test.afterAll(async () => {
  await page.close();
});

test("a webhook is added; its signing secret is shown once", async () => {
  await signUpAndSignIn(page, owner);
  await page.getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText("No webhooks yet")).toBeVisible();

  await page.getByLabel("Endpoint URL").fill(receiver);
  await page.getByLabel("run.failed").uncheck();
  await expect(page.getByLabel("run.completed")).toBeChecked();
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByLabel("Webhook signing secret")).toHaveValue(/^whsec_/);
  await expect(page.getByText("webhook-signature")).toBeVisible();
  // The form is a new one again, its event boxes too: the next webhook does not inherit this one's events.
  await expect(page.getByLabel("Endpoint URL")).toHaveValue("");
  await expect(page.getByLabel("run.completed")).toBeChecked();
  await expect(page.getByLabel("run.failed")).toBeChecked();
  await expect(page.getByLabel("sitemap.failed")).not.toBeChecked();

  const row = page.getByTestId("webhook-row").filter({ hasText: receiver });
  await expect(row).toContainText("run.completed");
  await expect(row).not.toContainText("run.failed");
  await expect(row).toContainText("Standard");
  await expect(row).toContainText("active");

  await page.reload();
  await expect(row).toBeVisible();
  await expect(page.getByLabel("Webhook signing secret")).toHaveCount(0);
  await expect(page.getByText("An account has at most 10 webhooks, one per URL")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your webhooks (1 of 10)" })).toBeVisible();
});

test("the form says why a second webhook to one URL, and an 11th webhook, are refused", async () => {
  await page.getByLabel("Endpoint URL").fill("HTTP://Hooks.test:80/receiver");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This account already has a webhook to HTTP://Hooks.test:80/receiver: change that one instead." })).toBeVisible();

  // Nine more, made through the API as the dashboard makes them: the account has its ten.
  const more: { id: number }[] = [];
  for (let i = 1; i <= 9; i++) more.push(await dashboardPost<{ id: number }>("/webhooks", { url: `${receiver}?n=${i}`, events: ["run.completed"] }));
  await page.getByLabel("Endpoint URL").fill("http://hooks.test/eleventh");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "An account has at most 10 webhooks: delete one first." })).toBeVisible();
  // The nine were made behind the page's back: it shows them once it reads the list again.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your webhooks (10 of 10)" })).toBeVisible();
  for (const { id } of more) expect((await page.request.delete(`/api/v1/webhooks/${id}`, { headers: { "x-preheat-dashboard": "1" } })).status()).toBe(204);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your webhooks (1 of 10)" })).toBeVisible();
});

test("a test event is sent, fails at the receiver, and is listed among the deliveries", async ({ request }) => {
  await page.getByRole("link", { name: receiver }).click();
  await expect(page).toHaveURL(/\/webhooks\/\d+$/);
  webhookUrl = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { name: receiver, level: 1 })).toBeVisible();
  await expect(page.getByText("No deliveries yet")).toBeVisible();

  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Test event failed" })).toBeVisible();
  const deliveries = page.getByTestId("webhook-deliveries");
  await expect(deliveries.getByRole("row")).toHaveCount(2);
  await expect(deliveries).toContainText("webhook.test");
  await expect(page.getByText("1 failed attempt since the last success")).toBeVisible();
  // One test event every 10 s: the second is refused, and the page says for how long.
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "A webhook takes one test event every 10 s: try again in" })).toBeVisible();
  await expect(deliveries.getByRole("row")).toHaveCount(2);

  const arrived = await request.get(`${originUrl}/__origin/hosts/hooks.test`);
  expect(await arrived.json()).toContain("POST /receiver");
});

test("a webhook is disabled and enabled again, and its events are edited", async () => {
  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByText("No events are sent while it is disabled.")).toBeVisible();
  await page.getByRole("button", { name: "Enable" }).click();
  await expect(page.getByText("No events are sent while it is disabled.")).toHaveCount(0);
  // Enabling again starts the failure count afresh.
  await expect(page.getByText("0 failed attempts since the last success")).toBeVisible();

  await page.getByLabel("run.failed").check();
  await page.getByLabel("Description (optional)").fill("Deploy dashboard");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Deploy dashboard", level: 1 })).toBeVisible();
  await page.goto("/webhooks");
  await expect(page.getByTestId("webhook-row").filter({ hasText: receiver })).toContainText("run.completed, run.failed");
});

test("a deploy hook is created on a boost page, shown once, starts the boost, and is revoked", async ({ request }) => {
  // The site and its boost are the setting here, not the subject: made through the API, as the dashboard makes them.
  const site = await dashboardPost<{ id: number }>("/sites", { domain });
  const boost = await dashboardPost<{ id: number }>("/boosts", { name: "On deploy", site_id: site.id, source_type: "csv", region: ["fr"], source_url: `http://${domain}/urls.csv` });
  await page.goto(`/boosts/${boost.id}`);
  await expect(page.getByRole("heading", { name: "On deploy", level: 1 })).toBeVisible();
  await expect(page.getByText("No deploy hooks yet")).toBeVisible();

  await page.getByLabel("Hook name (optional)").fill("Production deploy");
  await page.getByRole("button", { name: "Create deploy hook" }).click();
  const shown = page.getByLabel("New deploy hook URL");
  await expect(shown).toHaveValue(/\/v1\/hooks\//);
  const hookUrl = await shown.inputValue();
  await expect(page.getByText(`curl -X POST ${hookUrl}`)).toBeVisible();
  const row = page.getByTestId("boost-hook-row").filter({ hasText: "Production deploy" });
  await expect(row).toContainText("never");

  const triggered = await request.post(hookUrl);
  expect(triggered.status()).toBe(202);
  // The run it started says so on its page.
  const { run_id } = (await triggered.json()) as { run_id: number };
  await page.goto(`/runs/${run_id}`);
  await expect(page.getByTestId("run-trigger")).toContainText("started by the deploy hook Production deploy");
  await page.goto(`/boosts/${boost.id}`);

  await row.getByRole("button", { name: "Revoke" }).click();
  await row.getByRole("button", { name: "Revoke hook" }).click();
  await expect(row).toHaveCount(0);
  expect((await request.post(hookUrl)).status()).toBe(404);
});

test("the webhook is deleted from the list after a confirmation", async () => {
  await page.goto("/webhooks");
  const row = page.getByTestId("webhook-row").filter({ hasText: receiver });
  await row.getByRole("button", { name: "Delete" }).click();
  await row.getByRole("button", { name: "Delete webhook" }).click();
  await expect(page.getByText("No webhooks yet")).toBeVisible();
  expect((await page.request.get(`/api/v1${webhookUrl}`, { headers: { "x-preheat-dashboard": "1" } })).status()).toBe(404);
});
