import { type Browser, expect, type Page, test } from "@playwright/test";
import { lastEmailTo, signUpAndSignIn } from "./support/emails";

/**
 * A team in one organization, in order: the owner invites a member and a viewer by e-mail; each
 * accepts from the link in a browser of their own; what each may do shows in the pages, and the API
 * refuses the rest; removing a member signs them out at once, and their next page says why; back in
 * no organization, they create one or wait for an invitation; a user of two organizations switches;
 * a rename shows in the header's menu at once.
 */
test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const owner = { email: `team-owner-${stamp}@example.com`, password: "correct horse battery", organization: `Team ${stamp}` };
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
  // The role is described on its own, not as what it adds to the one below it.
  await expect(page.getByText(/ reads everything: /)).not.toContainText(/\balso\b/);
  await expect(page.getByText(`You will sign in with your address, ${user.email}, and this password.`)).toBeVisible();
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

test("a removed member's next page says why they were signed out; signed in again, they belong to no organization until they create one", async () => {
  await memberPage.goto("/team");
  await expect(memberPage).toHaveURL(/\/signin/);
  await expect(memberPage.getByRole("status")).toHaveText(
    `You were signed out because an owner removed you from ${owner.organization}. Sign in again to work in the organizations you still belong to, or to create one.`,
  );
  await memberPage.getByLabel("E-mail").fill(member.email);
  await memberPage.getByLabel("Password").fill(member.password);
  await memberPage.getByRole("button", { name: "Sign in", exact: true }).click();
  // Nothing was made for them: every dashboard page leads to the choice.
  await expect(memberPage).toHaveURL(/\/organizations\/new$/);
  await expect(memberPage.getByRole("heading", { name: "You belong to no organization" })).toBeVisible();
  await expect(memberPage.getByText(`No invitation to ${member.email} is waiting.`)).toBeVisible();
  await memberPage.goto("/sites");
  await expect(memberPage).toHaveURL(/\/organizations\/new$/);
  await expect(memberPage.getByRole("link", { name: "Team" })).toHaveCount(0);

  // An invitation waiting for the address is listed; its link is in its e-mail.
  await invite(member.email, "viewer");
  await memberPage.reload();
  await expect(memberPage.getByRole("listitem").filter({ hasText: `${owner.organization}, as viewer, from ${owner.email}` })).toBeVisible();

  await memberPage.getByRole("button", { name: "Create" }).click();
  await expect(memberPage.getByText("Give the organization a name.").first()).toBeVisible();
  await memberPage.getByLabel("Organization name").fill("Member's workshop");
  await memberPage.getByRole("button", { name: "Create" }).click();
  await expect(memberPage).toHaveURL(/\/sites$/);
  await expect(memberPage.getByRole("combobox", { name: "Organization", exact: true }).locator("option:checked")).toHaveText("Member's workshop");
});

test("a user of two organizations switches between them in the header and sees each one's sites only", async () => {
  const created = await viewerPage.request.post("/api/dashboard/organizations", { headers: { "x-preheat-dashboard": "1" }, data: { name: "Viewer's own" } });
  expect(created.status()).toBe(201);
  await viewerPage.goto("/sites");
  await expect(viewerPage.getByText("No sites yet")).toBeVisible();
  await viewerPage.getByLabel("Organization").selectOption({ label: owner.organization });
  await expect(viewerPage).toHaveURL(/\/sites$/);
  await expect(viewerPage.getByRole("link", { name: domain })).toBeVisible();
});

test("renaming the organization says it worked, and the header's menu shows the new name at once", async () => {
  await ownerPage.goto("/team");
  const renamed = `${owner.organization} renamed`;
  await ownerPage.getByLabel("Organization name").fill(renamed);
  await ownerPage.getByRole("button", { name: "Rename" }).click();
  await expect(ownerPage.getByRole("status").filter({ hasText: `Renamed: the organization is ${renamed} now.` })).toBeVisible();
  await expect(ownerPage.getByRole("combobox", { name: "Organization", exact: true }).locator("option:checked")).toHaveText(renamed);
});

test("the organization menu leads to a new organization's page", async () => {
  await ownerPage.goto("/sites");
  await ownerPage.getByRole("combobox", { name: "Organization", exact: true }).selectOption({ label: "New organization…" });
  await expect(ownerPage).toHaveURL(/\/organizations\/new$/);
  await expect(ownerPage.getByRole("heading", { name: "New organization" })).toBeVisible();
});
