import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, type Page } from "@playwright/test";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

/** The operator CLI, on the test server's database: what it printed. */
export async function cli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "lib/cli/main.ts", ...args], {
    cwd: root,
    env: { ...process.env, PREHEAT_DATA_DIR: process.env.PREHEAT_E2E_DATA_DIR, DATABASE_URL: "" },
  });
  return stdout;
}

/** The newest e-mail to an address, as the operator CLI prints it from the server's outbox. */
export async function lastEmailTo(address: string): Promise<string> {
  return cli("emails", "--to", address);
}

/** The e-mail's link of this server's: the sign-up confirmation or a sign-in link. */
export function linkIn(text: string): string {
  const link = text.match(/https?:\/\/\S+?(?=[\s)"]|$)/g)?.find((url) => /\/signup\/confirm|\/api\/auth\/callback\//.test(url));
  if (!link) throw new Error(`no link in:\n${text}`);
  return link;
}

/**
 * A new owner's way in: sign up with the address alone, follow the e-mailed link, name the
 * organization and choose the password on the page it opens; its button creates the account and signs in.
 */
export async function signUpAndSignIn(page: Page, user: { name?: string; email: string; password: string; organization?: string }) {
  // Twenty sign-ups an hour per address: each owner of the suite comes from an address of its own (the server trusts 127.0.0.1 as a proxy).
  const octet = () => Math.floor(Math.random() * 254) + 1;
  await page.setExtraHTTPHeaders({ "x-forwarded-for": `10.${octet()}.${octet()}.${octet()}` });
  await page.goto("/signup");
  if (user.name) await page.getByLabel("Name (optional)").fill(user.name);
  await page.getByLabel("E-mail").fill(user.email);
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await page.getByRole("button", { name: "Create account" }).click();
  // This server sends no e-mail: the page says where the link is instead of "we sent".
  await expect(page.getByRole("heading", { name: "Your link is in the server's outbox" })).toBeVisible();
  await expect(page.getByRole("status")).not.toContainText("We sent");
  await expect(page.getByText(`npm run --silent cli -- emails --to ${user.email}`)).toBeVisible();
  await page.goto(linkIn(await lastEmailTo(user.email)));
  await expect(page.getByText(user.email)).toBeVisible();
  await page.getByLabel("Organization name").fill(user.organization ?? "Acme Web");
  await page.getByLabel("Password").fill("too short");
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The password needs at least 10 characters." })).toBeVisible();
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page).toHaveURL(/\/sites$/);
}
