import { expect, type Page, test } from "@playwright/test";
import { cli, signUpAndSignIn } from "./support/emails";

/**
 * The operator console (issue 30): a user granted it by the CLI suspends a customer's organization
 * with a reason, and the customer's member, in a browser of their own, reads that reason on their
 * dashboard; resuming opens it again. The customer sees no trace of the console.
 */
test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const operator = { email: `operator-${stamp}@example.com`, password: "the operator's long password" };
const customer = { email: `customer-${stamp}@example.com`, password: "a customer's long password" };
const reason = "Your card was declined: update it in the billing portal.";

let operatorPage: Page;
let customerPage: Page;

test.afterAll(async () => {
  for (const page of [operatorPage, customerPage]) await page?.context().close();
});

test("a customer finds no operator console; the operator granted by the CLI opens it from the header", async ({ browser }) => {
  customerPage = await (await browser.newContext()).newPage();
  await signUpAndSignIn(customerPage, customer);
  await expect(customerPage.getByRole("link", { name: "Operator console" })).toHaveCount(0);
  const refused = await customerPage.goto("/operator");
  expect(refused?.status()).toBe(404);

  operatorPage = await (await browser.newContext()).newPage();
  await signUpAndSignIn(operatorPage, operator);
  await cli("users", "grant-operator", "--email", operator.email);
  await operatorPage.reload();
  await operatorPage.getByRole("link", { name: "Operator console" }).click();
  await expect(operatorPage).toHaveURL(/\/operator$/);
  await expect(operatorPage.getByRole("heading", { name: "Organizations" })).toBeVisible();
  await expect(operatorPage.getByRole("navigation", { name: "Operator" }).getByRole("link", { name: "Queues" })).toBeVisible();
});

test("the operator suspends the customer's organization with a reason, and its member reads it on every page", async () => {
  await operatorPage.getByLabel("Search organizations").fill(customer.email);
  await operatorPage.getByRole("button", { name: "Search" }).click();
  const row = operatorPage.getByTestId("organization-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByText("default")).toBeVisible();
  await row.getByRole("link").click();
  await expect(operatorPage.getByRole("heading", { name: "Members" })).toBeVisible();
  await expect(operatorPage.getByRole("listitem").filter({ hasText: customer.email })).toContainText("owner");

  await operatorPage.getByRole("button", { name: "Suspend…" }).click();
  await operatorPage.getByLabel("Reason shown to its members").fill(reason);
  await operatorPage.getByRole("button", { name: "Suspend organization" }).click();
  await expect(operatorPage.getByRole("heading", { name: "Suspended" })).toBeVisible();
  await expect(operatorPage.getByText(reason)).toBeVisible();
  await operatorPage.screenshot({ path: "test-results/screenshots/operator-suspended.png", fullPage: true });

  await customerPage.goto("/sites");
  const banner = customerPage.getByRole("alert").filter({ hasText: "Organization suspended" });
  await expect(banner).toContainText(`This organization is suspended by the operator of this service: ${reason}`);
  await customerPage.screenshot({ path: "test-results/screenshots/customer-suspended.png", fullPage: true });
  await customerPage.goto("/keys");
  await expect(banner).toBeVisible();
  await expect(customerPage.getByRole("heading", { name: "API keys" })).toHaveCount(0);
});

test("the operator resumes it, and the member's dashboard opens again", async () => {
  await operatorPage.getByRole("button", { name: "Resume", exact: true }).click();
  await operatorPage.getByRole("button", { name: "Resume organization" }).click();
  await expect(operatorPage.getByText(/^Resumed/)).toBeVisible();
  await expect(operatorPage.getByRole("button", { name: "Suspend…" })).toBeVisible();

  await customerPage.goto("/keys");
  await expect(customerPage.getByRole("heading", { name: "API keys" })).toBeVisible();
  await expect(customerPage.getByText("Organization suspended")).toHaveCount(0);
});
