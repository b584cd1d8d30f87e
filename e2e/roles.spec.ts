import { type Browser, expect, type Page, test } from "@playwright/test";
import { type Role, ROLES, roleAllows } from "@/lib/core/roles";
import { type DashboardData, dashboardPaths, signUpWithData } from "./support/dashboard-data";
import { lastEmailTo } from "./support/emails";

/**
 * Every page as every role (issue 60): each visible control is used — fields filled, every button
 * pressed, confirmations too — while the requests they send are held back and answered here, so that
 * nothing changes. A request the API would refuse to the role is a control the page should not have
 * offered. Links in the page must not lead the role to a page it cannot use.
 */
test.describe.configure({ mode: "serial" });

const dashboard = { "x-preheat-dashboard": "1" };
let data: DashboardData;
const pages: Partial<Record<Role, Page>> = {};
const emails: Partial<Record<Role, string>> = {};

/**
 * The dashboard's own routes (app/api/dashboard) and the role each change needs there; every other
 * change of theirs is the member's own (their password, sessions, two-factor, leaving).
 */
const DASHBOARD_ROUTE_ROLES: { method: string; path: RegExp; role: Role; unlessOwn?: true }[] = [
  { method: "POST", path: /^\/api\/dashboard\/keys$/, role: "admin" },
  { method: "DELETE", path: /^\/api\/dashboard\/keys\/\d+$/, role: "admin" },
  { method: "POST", path: /^\/api\/dashboard\/invitations(\/\d+\/resend)?$/, role: "owner" },
  { method: "DELETE", path: /^\/api\/dashboard\/invitations\/\d+$/, role: "owner" },
  { method: "PATCH", path: /^\/api\/dashboard\/organization$/, role: "owner" },
  { method: "DELETE", path: /^\/api\/dashboard\/organization$/, role: "owner" },
  { method: "PATCH", path: /^\/api\/dashboard\/members\/\d+$/, role: "owner" },
  { method: "DELETE", path: /^\/api\/dashboard\/members\/\d+$/, role: "owner", unlessOwn: true },
];

/** Each `/v1` operation's role, as the published OpenAPI document declares it (`x-required-role`). */
let v1Roles: { method: string; path: RegExp; role: Role }[] = [];

async function readV1Roles(page: Page) {
  const document = (await (await page.request.get("/v1/openapi.json")).json()) as { paths: Record<string, Record<string, { "x-required-role"?: Role }>> };
  v1Roles = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, op]) =>
      op["x-required-role"] ? [{ method: method.toUpperCase(), path: new RegExp(`^/api${path.replace(/\{[^}]+\}/g, "[^/]+")}$`), role: op["x-required-role"] }] : [],
    ),
  );
  expect(v1Roles.length).toBeGreaterThan(30);
}

/** The role a request of the dashboard needs, by the same declarations the API enforces. */
function roleNeeded(method: string, url: URL, ownUserId: number): Role {
  const v1 = v1Roles.find((op) => op.method === method && op.path.test(url.pathname));
  if (v1) return v1.role;
  const own = DASHBOARD_ROUTE_ROLES.find((route) => route.method === method && route.path.test(url.pathname));
  if (!own) return "viewer";
  if (own.unlessOwn && url.pathname.endsWith(`/${ownUserId}`) && url.searchParams.get("revoke_keys") !== "false") return "viewer";
  return own.role;
}

async function invite(owner: Page, browser: Browser, role: Role): Promise<Page> {
  const email = `walk-${role}-${Date.now().toString(36)}@example.com`;
  emails[role] = email;
  const sent = await owner.request.post("/api/dashboard/invitations", { headers: dashboard, data: { email, role } });
  expect(sent.status(), await sent.text()).toBe(201);
  const link = (await lastEmailTo(email)).match(/https?:\/\/\S+?\/invitations\/[A-Za-z0-9_-]+/)?.[0];
  if (!link) throw new Error(`no invitation e-mailed to ${email}`);
  const page = await (await browser.newContext()).newPage();
  await page.goto(new URL(link).pathname);
  await page.getByLabel("Choose a password").fill("a long enough password");
  await page.getByRole("button", { name: /^Join / }).click();
  await expect(page).toHaveURL(/\/sites$/);
  return page;
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(150);
}

/**
 * Gives every empty field of the page a value its kind accepts, so that a form gets as far as
 * sending; in the page, as typing would (React reads the input events), in one round trip.
 */
async function fillFields(page: Page) {
  await page.locator("main").evaluate((main, domain) => {
    const visible = (el: Element) => (el as HTMLElement).offsetParent !== null;
    const type = (el: HTMLInputElement, value: string) => {
      const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value")?.set;
      setter?.call(el, value);
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
    };
    for (const field of main.querySelectorAll<HTMLInputElement>("input:enabled:not([readonly]), textarea:enabled:not([readonly])")) {
      if (!visible(field)) continue;
      const kind = field.type;
      if (kind === "checkbox" || kind === "radio") {
        if (!field.checked) field.click();
      } else if (kind === "number") {
        if (!field.value) type(field, "2");
      } else if (kind === "email") {
        type(field, "someone@example.com");
      } else if (kind === "url") {
        type(field, `https://${domain}/walk.xml`);
      } else if (["file", "hidden", "date", "datetime-local", "time", "search"].includes(kind)) {
        // A file chooser sends nothing by itself (uploads are the traffic spec's); filters keep their defaults.
      } else if (!field.value) {
        type(field, kind === "password" ? "a long enough password" : `https://${domain}/walk`);
      }
    }
    for (const select of main.querySelectorAll<HTMLSelectElement>("select:enabled")) {
      if (!visible(select) || select.options.length < 2 || select.selectedIndex === select.options.length - 1) continue;
      type(select as unknown as HTMLInputElement, select.options[select.options.length - 1]?.value ?? "");
    }
  }, data.domain);
}

/** The enabled buttons of the page, each named by its place and its text. */
async function buttonsOf(page: Page): Promise<string[]> {
  return page
    .locator("main")
    .locator("button:enabled:visible")
    .evaluateAll((buttons) => buttons.map((button, index) => `${index}:${(button.textContent ?? "").trim()}`));
}

type Attempt = { method: string; path: string; needed: Role };

/** Uses every control of the page; the changes it tried to send, where the page links to and the fields it lets one type in. */
async function walk(page: Page, path: string, ownUserId: number): Promise<{ attempts: Attempt[]; links: string[]; fields: string[] }> {
  const attempts: Attempt[] = [];
  await page.route(/\/api\/(v1|dashboard)\//, async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const readLike = request.method() === "GET" || /\/(boost-estimate|preview)$/.test(url.pathname);
    if (readLike) return route.continue();
    attempts.push({ method: request.method(), path: url.pathname + url.search, needed: roleNeeded(request.method(), url, ownUserId) });
    await route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ error: { code: "walked", message: "Held back by the test." } }) });
  });
  await page.goto(path);
  await settle(page);
  const links = await page.locator("main a[href^='/']").evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href") ?? ""));
  const fields = await page
    .locator("main")
    .locator("input:enabled:visible:not([readonly]):not([type=search]):not([type=date]), textarea:enabled:visible:not([readonly])")
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).labels?.[0]?.textContent ?? input.getAttribute("aria-label") ?? input.outerHTML));
  const pressed = new Set<string>();
  for (let round = 0; round < 150; round++) {
    await fillFields(page);
    const buttons = await buttonsOf(page);
    const next = buttons.findIndex((key) => !pressed.has(key));
    if (next < 0) break;
    pressed.add(buttons[next] as string);
    await page
      .locator("main")
      .locator("button:enabled:visible")
      .nth(next)
      .click({ timeout: 2000 })
      .catch(() => undefined);
    await page.waitForTimeout(60);
    if (new URL(page.url()).pathname !== path) {
      await page.goto(path);
      await settle(page);
    }
  }
  await page.unrouteAll({ behavior: "ignoreErrors" });
  return { attempts, links, fields };
}

async function userIdOf(page: Page, email: string): Promise<number> {
  const members = (await (await page.request.get("/api/dashboard/members", { headers: dashboard })).json()) as { data: { user_id: number; email: string }[] };
  const mine = members.data.find((member) => member.email === email);
  if (!mine) throw new Error(`${email} is not a member`);
  return mine.user_id;
}

test.afterAll(async () => {
  for (const page of Object.values(pages)) await page?.context().close();
});

test("an owner's organization with a member of every role", async ({ browser }) => {
  const owner = await (await browser.newContext()).newPage();
  pages.owner = owner;
  data = await signUpWithData(owner, "walk");
  await readV1Roles(owner);
  for (const role of ["viewer", "member", "admin"] as const) pages[role] = await invite(owner, browser, role);
});

const PAGE_ROLE: { path: RegExp; role: Role }[] = [
  { path: /\/boosts\/new$|\/edit$/, role: "admin" },
  { path: /\/warm$/, role: "member" },
];

for (const role of ROLES.filter((r) => r !== "owner")) {
  test(`as ${role}: no page offers a control the API refuses, nor a link to a page the role cannot use`, async () => {
    test.setTimeout(600_000);
    const page = pages[role] as Page;
    const ownUserId = await userIdOf(page, emails[role] as string);
    const refused: string[] = [];
    const deadLinks: string[] = [];
    const sent: Attempt[] = [];
    for (const path of dashboardPaths(data).filter((p) => p !== "/docs/api" && p !== "/bot" && p !== "/")) {
      const needed = PAGE_ROLE.find((p) => p.path.test(path))?.role ?? "viewer";
      if (!roleAllows(role, needed)) {
        // Opened by its address anyway, the page says why it offers nothing: no form to fill in vain.
        await page.goto(path);
        await expect(page.getByText(`does not allow this: it needs ${needed} or above`)).toBeVisible();
        await expect(page.locator("main form")).toHaveCount(0);
        continue;
      }
      const { attempts, links, fields } = await walk(page, path, ownUserId);
      sent.push(...attempts);
      // A viewer changes nothing of the organization's records: their pages have nothing to type in (filters aside).
      if (role === "viewer" && /^\/(sites|boosts|webhooks|keys)\b/.test(path)) expect(fields, `fields a viewer can type in on ${path}`).toEqual([]);
      for (const attempt of attempts) {
        if (!roleAllows(role, attempt.needed)) refused.push(`${path}: ${attempt.method} ${attempt.path} needs ${attempt.needed}`);
      }
      for (const href of links) {
        const target = PAGE_ROLE.find((p) => p.path.test(new URL(href, "http://x").pathname));
        if (target && !roleAllows(role, target.role)) deadLinks.push(`${path} links to ${href}, which needs ${target.role}`);
      }
    }
    // The walk did reach the forms: what the role may do was tried (and held back).
    const tried = (pattern: RegExp) => sent.some((attempt) => pattern.test(`${attempt.method} ${attempt.path}`));
    expect(tried(/^PUT \/api\/dashboard\/password$/), "the account page's own forms").toBe(true);
    if (roleAllows(role, "member")) expect(tried(/^POST \/api\/v1\/boosts\/\d+\/run$/), "Run now").toBe(true);
    if (roleAllows(role, "admin")) expect(tried(/^POST \/api\/v1\/sites\/\d+\/sitemaps$/), "Add sitemap").toBe(true);
    expect(refused, "controls the API refuses").toEqual([]);
    expect(deadLinks, "links to pages the role cannot use").toEqual([]);
  });
}
