import { type Browser, expect, type Page, test } from "@playwright/test";
import { lastEmailTo, signUpAndSignIn } from "./support/emails";

/**
 * A team in one organization, in order: the owner invites a member and a viewer by e-mail; each
 * accepts from the link in a browser of their own; what each may do shows in the pages, and the API
 * refuses the rest; removing a member signs them out at once; a user of two organizations switches.
 */
test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const owner = { email: `team-owner-${stamp}@example.com`, password: "correct horse battery" };
const member = { email: `team-member-${stamp}@example.com`, password: "a member's long password" };
const viewer = { email: `team-viewer-${stamp}@example.com`, password: "a viewer's long password" };
const domain = `team-${stamp}.test`;

let ownerPage: Page;
let memberPage: Page;
let viewerPage: Page;
let siteId = 0;
let boostId = 0;

async function dashboardPost<T>(page: Page, path: string, data: unknown): Promise<T> {
  const response = await page.request.post(`/api/v1${path}`, { headers: { "x-preheat-dashboard": "1" }, data });
  expect(response.status(), path).toBe(201);
  return (await response.json()) as T;
}

/** The invitation's link in the newest e-mail to the address. */
async function invitationLink(email: string): Promise<string> {
  const found = (await lastEmailTo(email)).match(/https?:\/\/\S+?\/invitations\/[A-Za-z0-9_-]+/)?.[0];
  if (!found) throw new Error(`no invitation e-mailed to ${email}`);
  return new URL(found).pathname;
}

async function invite(email: string, role: string) {
  await ownerPage.goto("/team");
  await ownerPage.getByLabel("E-mail address").fill(email);
  await ownerPage.getByLabel("Role", { exact: true }).selectOption(role);
  await ownerPage.getByRole("button", { name: "Send invitation" }).click();
  await expect(ownerPage.getByText("Invitation sent")).toBeVisible();
}

/** Opens the invitation in a browser of its own, chooses a password and joins. */
async function accept(browser: Browser, user: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(await invitationLink(user.email));
  await expect(page.getByRole("heading", { name: "Join " })).toBeVisible();
  await page.getByLabel("Choose a password").fill(user.password);
  await page.getByRole("button", { name: /^Join / }).click();
  await expect(page).toHaveURL(/\/sites$/);
  return page;
}

test.afterAll(async () => {
  for (const page of [ownerPage, memberPage, viewerPage]) await page?.context().close();
});

test("the owner invites a colleague as member; the colleague accepts from the e-mail and sees the organization's sites", async ({ browser }) => {
  ownerPage = await (await browser.newContext()).newPage();
  await signUpAndSignIn(ownerPage, owner);
  siteId = (await dashboardPost<{ id: number }>(ownerPage, "/sites", { domain })).id;
  boostId = (await dashboardPost<{ id: number }>(ownerPage, `/sites/${siteId}/boosts`, { name: "Team boost", source_type: "csv", source_url: `http://${domain}/urls.csv`, region: ["fr"] })).id;
  await invite(member.email, "member");
  await expect(ownerPage.getByRole("cell", { name: member.email })).toBeVisible();
  // The only owner is not offered to leave (the API refuses it): the button is off, and says why.
  await expect(ownerPage.getByRole("button", { name: "Leave" })).toBeDisabled();
  await expect(ownerPage.getByText("You are its only owner: make another member owner before you leave.")).toBeVisible();

  memberPage = await accept(browser, member);
  await expect(memberPage.getByRole("link", { name: domain })).toBeVisible();
  await expect(memberPage.getByLabel("Organization")).toBeVisible();
});

test("a member runs a boost, and has no button to delete the site, which the API refuses", async () => {
  await memberPage.goto(`/boosts/${boostId}`);
  await memberPage.getByRole("button", { name: "Run now" }).click();
  await expect.poll(async () => (await (await memberPage.request.get(`/api/v1/runs?boost_id=${boostId}`, { headers: { "x-preheat-dashboard": "1" } })).json()).total).toBe(1);
  await expect(memberPage.getByRole("link", { name: "Edit" })).toHaveCount(0);
  await memberPage.goto(`/sites/${siteId}`);
  await expect(memberPage.getByRole("heading", { name: domain })).toBeVisible();
  await expect(memberPage.getByRole("button", { name: "Delete site" })).toHaveCount(0);
  const refused = await memberPage.request.delete(`/api/v1/sites/${siteId}`, { headers: { "x-preheat-dashboard": "1" } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe("insufficient_role");
});

test("a viewer reads the boost and cannot run anything", async ({ browser }) => {
  await invite(viewer.email, "viewer");
  viewerPage = await accept(browser, viewer);
  await viewerPage.goto(`/boosts/${boostId}`);
  await expect(viewerPage.getByRole("heading", { name: "Team boost" })).toBeVisible();
  await expect(viewerPage.getByRole("button", { name: "Run now" })).toHaveCount(0);
  const refused = await viewerPage.request.post(`/api/v1/boosts/${boostId}/run`, { headers: { "x-preheat-dashboard": "1" } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe("insufficient_role");
});

test("removing a member ends their open session at once", async () => {
  await ownerPage.goto("/team");
  const row = ownerPage.getByRole("row").filter({ hasText: member.email });
  await row.getByRole("button", { name: "Remove" }).click();
  await row.getByRole("button", { name: `Remove ${member.email}` }).click();
  await expect(row.getByRole("button", { name: "Remove" })).toHaveCount(0);
  await memberPage.goto("/sites");
  await expect(memberPage).toHaveURL(/\/signin/);
});

test("a user of two organizations switches between them in the header and sees each one's sites only", async () => {
  const created = await viewerPage.request.post("/api/dashboard/organizations", { headers: { "x-preheat-dashboard": "1" }, data: { name: "Viewer's own" } });
  expect(created.status()).toBe(201);
  await viewerPage.goto("/sites");
  await expect(viewerPage.getByText("No sites yet")).toBeVisible();
  await viewerPage.getByLabel("Organization").selectOption({ label: owner.email });
  await expect(viewerPage).toHaveURL(/\/sites$/);
  await expect(viewerPage.getByRole("link", { name: domain })).toBeVisible();
});
