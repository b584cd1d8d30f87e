import { encodeSignatureHeader } from "@sanity/webhook";
import { expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/emails";

/**
 * The site page's Changes panel, in one browser, in order: a Sanity receiver is created (its secret
 * shown once), a signed delivery arrives that its templates do not map, and the templates' preview
 * says why, then what a template being typed renders to.
 */
test.describe.configure({ mode: "serial" });

const owner = { email: `changes-${Date.now()}@example.com`, password: "correct horse battery" };
const domain = `changed-${Date.now().toString(36)}.test`;

let page: Page;
let secret = "";
let receiverUrl = "";

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
});
test.afterAll(async () => {
  await page.close();
});

test("the site page shows the Changes panel; a receiver is created and its secret shown once", async () => {
  await signUpAndSignIn(page, owner);
  await page.getByLabel("Domain").fill(`https://${domain}/`);
  await page.getByRole("button", { name: "Add site" }).click();
  await expect(page.getByRole("heading", { name: domain })).toBeVisible();

  await expect(page.getByRole("heading", { name: "Changes", level: 2, exact: true })).toBeVisible();
  await expect(page.getByLabel("Changes are warmed with")).toHaveValue("");
  await expect(page.getByText("No change is waiting")).toBeVisible();
  await expect(page.getByText("No change receiver yet")).toBeVisible();

  await page.getByRole("combobox", { name: "System", exact: true }).selectOption("sanity");
  await page.getByRole("button", { name: "Create receiver" }).click();
  const shown = page.getByLabel("Change receiver secret");
  await expect(shown).toHaveValue(/^[0-9a-f]{64}$/);
  await expect(page.getByText("you will not see it again")).toBeVisible();
  secret = await shown.inputValue();

  const receiver = page.getByTestId("change-receiver");
  await expect(receiver).toContainText("Sanity");
  receiverUrl = (await receiver.getByTestId("receiver-url").textContent()) ?? "";
  expect(receiverUrl).toMatch(/\/v1\/receivers\/[\w-]+$/);
  await expect(receiver.getByRole("button", { name: "Copy URL" })).toBeVisible();
  await receiver.getByText("Set up Sanity").click();
  await expect(receiver.getByRole("link", { name: "Every step, and the signature Sanity uses" })).toHaveAttribute("href", "/docs/site-owners/change-receivers/sanity");
  await expect(receiver.getByTestId("templates-preview")).toContainText("No payload received yet");

  await page.getByRole("button", { name: "Done", exact: true }).click();
  await page.reload();
  await expect(page.getByLabel("Change receiver secret")).toHaveCount(0);
  await expect(page.getByTestId("change-receiver")).toBeVisible();
});

test("a delivery its templates do not map is listed with why, and the preview renders a template as it is typed", async () => {
  const body = JSON.stringify({ _type: "post", slug: { current: "hello-world" } });
  const answer = await page.request.post(receiverUrl, {
    headers: { "content-type": "application/json", "sanity-webhook-signature": await encodeSignatureHeader(body, Date.now(), secret) },
    data: body,
  });
  expect(answer.status()).toBe(202);
  expect(await answer.json()).toMatchObject({ queued: false });

  await page.reload();
  const receiver = page.getByTestId("change-receiver");
  await expect(receiver.getByLabel("Last deliveries")).toContainText("unmapped");
  await expect(receiver.getByLabel("Last deliveries")).toContainText("no URL template for `post`");
  const preview = receiver.getByTestId("templates-preview");
  await expect(preview).toContainText("(post), whose key is post.");
  await expect(preview).toContainText("A delivery like it would queue nothing: no URL template for `post`");

  await receiver.getByLabel("URL templates").fill("post: /blog/{slug.current}\npost: /blog/{title}");
  await expect(preview).toContainText(`https://${domain}/blog/hello-world`);
  await expect(preview).toContainText("/blog/{title}: the payload has no `title`");
  await expect(preview).toContainText("A delivery like it would queue 1 URL.");
  await receiver.getByRole("button", { name: "Save templates" }).click();
  await expect(receiver.getByText("Saved: the next delivery is mapped with them.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("change-receiver").getByLabel("URL templates")).toHaveValue("post: /blog/{slug.current}\npost: /blog/{title}");
});
