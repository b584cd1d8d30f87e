import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { signUpAndSignIn } from "./support/emails";

/**
 * Two-factor sign-in as a user meets it (issue 60, items 4 and 5): turned on from the Account page,
 * the recovery codes shown as a list to download before "Done" can be pressed, then a sign-in whose
 * code is a second step of its own, neutral, with no sign-in link offered.
 */
test.describe.configure({ mode: "serial" });

const user = { email: `two-factor-${Date.now()}@example.com`, password: "correct horse battery" };
let page: Page;
let secret = "";
/** The code that turned two-factor on: each code works once, so the sign-in waits for the next. */
let used = "";

const codeNow = () => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
});
test.afterAll(async () => {
  await page.close();
});

test("two-factor is turned on, and the recovery codes are a list to download, saved before Done", async () => {
  await signUpAndSignIn(page, user);
  await page.goto("/account");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  secret = ((await page.getByText(/^Key:/).textContent()) ?? "").replace(/^Key:\s*/, "").trim();
  expect(secret).toMatch(/^[A-Z2-7]+$/);
  used = codeNow();
  await page.getByLabel("Code from the app").fill(used);
  await page.getByRole("button", { name: "Turn on" }).click();

  const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const listed = await codes.allTextContents();
  const done = page.getByRole("button", { name: "Done", exact: true });
  await expect(done).toBeDisabled();
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download (.txt)" }).click();
  const file = readFileSync((await (await downloading).path())!, "utf8");
  for (const code of listed) expect(file).toContain(code);
  await page.getByLabel("I have saved these codes").check();
  await done.click();
  await expect(page.getByRole("list", { name: "Recovery codes" })).toHaveCount(0);
});

test("signing in asks the code as a second step of its own, without an error box or a sign-in link", async ({ browser }) => {
  const fresh = await browser.newPage();
  await fresh.goto("/signin");
  await fresh.getByLabel("E-mail").fill(user.email);
  await fresh.getByLabel("Password").fill(user.password);
  await fresh.getByRole("button", { name: "Sign in" }).click();
  await expect(fresh.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
  await expect(fresh.getByText("Your password is right.")).toBeVisible();
  await expect(fresh.locator("form").getByRole("alert")).toHaveCount(0);
  await expect(fresh.getByRole("button", { name: "E-mail me a sign-in link" })).toHaveCount(0);
  await expect.poll(codeNow, { timeout: 35_000, intervals: [1_000] }).not.toBe(used);
  await fresh.getByLabel("Two-factor code").fill(codeNow());
  await fresh.getByRole("button", { name: "Sign in" }).click();
  await expect(fresh).toHaveURL(/\/sites/);
  await fresh.close();
});
