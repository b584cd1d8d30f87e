import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/emails";
import { originUrl } from "./support/ports";

/**
 * The dashboard's forms as people meet them (issue 31), on a desktop and on a phone: each error goes
 * as soon as its field is fixed and the summary with it, every message is said once as a sentence
 * about the field on screen, and Warm now counts what was pasted before anything is sent.
 */
test.describe.configure({ mode: "serial" });

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

const PAGES = 12;

async function serveSite(request: APIRequestContext, domain: string, extraRoutes: Record<string, { body: string }> = {}) {
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: PAGES }, (_, i) => `<url><loc>http://${domain}/products/${i}</loc></url>`).join("")}</urlset>`;
  const response = await request.put(`${originUrl}/__origin/hosts/${domain}`, {
    data: {
      routes: { "/sitemap.xml": { body: sitemap, headers: { "content-type": "application/xml" } }, ...extraRoutes },
      fallback: { status: 200, body: "<html><body>product</body></html>" },
    },
  });
  expect(response.status()).toBe(204);
}

const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));

/** The control is marked, and the sentence under it (tied by aria-describedby, beside its hint) is `text`. */
async function expectError(control: Locator, text: string) {
  await expect(control).toHaveAttribute("aria-invalid", "true");
  await expect(control).toHaveAccessibleDescription(literally(text));
}

/** The control's error has gone. */
async function expectNoError(control: Locator) {
  await expect(control).not.toHaveAttribute("aria-invalid", "true");
}

/** The page's alerts, but Next's route announcer's (which reads out each new page's title). */
const alertsOn = (page: Page) => page.locator('[role="alert"]:not(#__next-route-announcer__)').filter({ hasText: /\S/ });

async function fitsTheWidth(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, page.url()).toBeLessThanOrEqual(0);
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

/** Pastes `text` into the focused control as a browser would: a paste event carrying it. */
async function paste(control: Locator, text: string) {
  await control.focus();
  await control.evaluate((element, value) => {
    const data = new DataTransfer();
    data.setData("text/plain", value);
    element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

for (const viewport of VIEWPORTS) {
  test.describe(`forms on a ${viewport.name} (${viewport.width} × ${viewport.height})`, () => {
    const stamp = `${viewport.name}-${Date.now().toString(36)}`;
    const domain = `forms-${stamp}.test`;
    const owner = { email: `forms-${stamp}@example.com`, password: "correct horse battery" };
    let page: Page;
    let siteUrl = "";

    test.beforeAll(async ({ browser }) => {
      page = await browser.newPage({ viewport: { width: viewport.width, height: viewport.height } });
    });
    test.afterAll(async () => {
      await page.close();
    });

    test("sign-up says a wrong address once, under the field, and drops it once the address changes", async () => {
      await page.goto("/signup");
      const email = page.getByLabel("E-mail");
      await email.fill("ada@");
      await page.getByRole("button", { name: "Create account" }).click();
      await expectError(email, '"ada@" is not a valid e-mail address.');
      // Said once: no banner repeats the field's error in the API's words.
      await expect(alertsOn(page)).toHaveCount(1);
      await expect(page.getByText("email:")).toHaveCount(0);
      await fitsTheWidth(page);
      await shot(page, `forms-signup-${viewport.name}`);
      await email.fill("ada@example.com");
      await expectNoError(email);
      await expect(alertsOn(page)).toHaveCount(0);
      await signUpAndSignIn(page, owner);
    });

    test("adding a site: a refused domain clears once changed; a pasted address keeps its host and says so", async ({ request }) => {
      await serveSite(request, domain);
      // A new organization's home lists its first steps, none taken yet.
      const steps = page.getByTestId("first-steps");
      await expect(page.getByRole("heading", { name: "Getting started: 0 of 6 done" })).toBeVisible();
      await expect(steps.getByRole("link", { name: "Add a site", exact: true })).toBeVisible();
      // What needs a site is not offered as a link before there is one.
      await expect(steps.getByRole("link")).toHaveCount(2);
      const field = page.getByLabel("Domain");
      await field.fill("exa_mple.test");
      await page.getByRole("button", { name: "Add site" }).click();
      await expectError(field, '"exa_mple.test" is not a valid host name (IP addresses are not accepted).');
      await expect(page.getByText("domain:")).toHaveCount(0);
      await field.fill("exa-mple.test");
      await expectNoError(field);
      await field.fill("");

      await paste(field, `http://${domain}/products/1?colour=red`);
      await expect(field).toHaveValue(domain);
      await expect(page.getByText(`Kept ${domain} from the address you pasted.`)).toBeVisible();
      await fitsTheWidth(page);
      await shot(page, `forms-site-pasted-${viewport.name}`);
      await page.getByRole("button", { name: "Add site" }).click();
      await expect(page.getByRole("heading", { name: domain })).toBeVisible();
      siteUrl = new URL(page.url()).pathname;

      // Validated, so that Warm now is offered and the estimate is not capped.
      const metaTag = await page.locator("pre").filter({ hasText: "service-token" }).textContent();
      const token = /content="([^"]+)"/.exec(metaTag ?? "")![1]!;
      await serveSite(request, domain, { [`/${token}.html`]: { body: token } });
      await page.getByRole("button", { name: "Validate now" }).click();
      await expect(page.getByText("with the token file")).toBeVisible();

      // Two steps taken; the next one leads to the site, and the list can be hidden for good in this browser.
      await page.goto("/sites");
      await expect(page.getByRole("heading", { name: "Getting started: 2 of 6 done" })).toBeVisible();
      await expect(steps.locator('[data-step="ownership_proved"]')).toHaveAttribute("data-done", "true");
      await expect(steps.getByRole("link", { name: "Add a sitemap" })).toHaveAttribute("href", siteUrl);
      await page.getByRole("button", { name: "Hide" }).click();
      await expect(steps).toHaveCount(0);
      await page.reload();
      await expect(page.getByRole("heading", { name: "Your sites" })).toBeVisible();
      await expect(steps).toHaveCount(0);
      await page.goto(siteUrl);
    });

    test("a refused sitemap address goes once Find sitemaps finds the site's sitemap", async () => {
      const field = page.getByLabel("Sitemap URL");
      await page.getByRole("button", { name: "Add sitemap" }).click();
      await expectError(field, `Enter the sitemap's address, e.g. https://${domain}/sitemap.xml.`);
      await field.fill("https://elsewhere.test/sitemap.xml");
      await expectNoError(field);
      await page.getByRole("button", { name: "Add sitemap" }).click();
      await expectError(field, `https://elsewhere.test/sitemap.xml is not on the site's domain ${domain}.`);
      await expect(page.getByText("url:")).toHaveCount(0);
      await fitsTheWidth(page);
      await page.getByRole("button", { name: "Find sitemaps" }).click();
      const row = page.getByTestId("sitemap-row").filter({ hasText: "sitemap.xml" });
      await expect(row.getByText("done", { exact: true })).toBeVisible();
      await expectNoError(field);
      await expect(alertsOn(page)).toHaveCount(0);
    });

    test("a new boost: the only sitemap is checked, errors and their summary go as fields are fixed, the estimate names a wrong language", async () => {
      await page.getByRole("link", { name: "New boost" }).click();
      await expect(page.getByLabel(`http://${domain}/sitemap.xml`)).toBeChecked();
      const name = page.getByLabel("Name", { exact: true });
      await page.getByRole("button", { name: "Create boost" }).click();
      await expectError(name, "Must not be empty.");
      const summary = page.getByRole("alert").filter({ hasText: "Please correct the fields marked above." });
      await expect(summary).toBeVisible();
      await name.fill("Forms");
      await expectNoError(name);
      await expect(summary).toHaveCount(0);

      const languages = page.getByLabel("Languages");
      const estimate = page.getByTestId("boost-estimate");
      await languages.fill("fr-FR, xx");
      await expect(estimate).toContainText("No estimate until this is fixed: “xx” must be a language tag of the form ll-RR, e.g. fr-FR.");
      await expectError(languages, "“xx” must be a language tag of the form ll-RR, e.g. fr-FR.");
      await fitsTheWidth(page);
      await shot(page, `forms-boost-language-${viewport.name}`);
      await languages.fill("fr-FR");
      await expectNoError(languages);
      await expect(estimate).toContainText(`A run now would warm ${PAGES} URLs with ${PAGES} calls`);
      await page.getByRole("button", { name: "Create boost" }).click();
      await expect(page.getByRole("heading", { name: "Forms" })).toBeVisible();
    });

    test("the boost page ends with its deletion, below the deploy hooks", async () => {
      const hooks = page.getByRole("heading", { name: "Deploy hooks" });
      const deletion = page.getByRole("heading", { name: "Delete this boost" });
      await expect(hooks).toBeVisible();
      await expect(deletion).toBeVisible();
      expect((await hooks.boundingBox())!.y).toBeLessThan((await deletion.boundingBox())!.y);
      await fitsTheWidth(page);
    });

    test("Warm now counts 6,000 pasted URLs, says 5,000 at most and is disabled; a wrong language clears once fixed", async () => {
      await page.goto(siteUrl);
      await page.getByRole("link", { name: "Warm now" }).click();
      const urls = page.getByLabel("URLs to warm");
      // Through the file field, which adds every URL of a file at once: typing 300 kB into a textarea would take minutes.
      const upload = async (count: number) =>
        page.getByLabel("Or upload a file").setInputFiles({
          name: "urls.txt",
          mimeType: "text/plain",
          buffer: Buffer.from(Array.from({ length: count }, (_, i) => `http://${domain}/products/${i}`).join("\n")),
        });
      await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: domain })).toHaveAttribute("href", siteUrl);
      await expect(page.getByRole("link", { name: `Back to ${domain}` })).toHaveAttribute("href", siteUrl);
      await upload(6000);
      await expect(page.getByText("6,000 URLs added from urls.txt.")).toBeVisible();
      await expectError(urls, "6,000 URLs: at most 5,000 per warm.");
      await expect(page.getByRole("button", { name: "Warm 6,000 calls" })).toBeDisabled();
      await fitsTheWidth(page);
      await shot(page, `forms-warm-too-many-${viewport.name}`);
      // A file's URLs are a list beside the box, not 6,000 lines in it: removing the list takes them out.
      await expect(urls).toHaveValue("");
      await page.getByRole("list", { name: "Lists of URLs" }).getByRole("button", { name: "Remove this list" }).click();
      await upload(5000);
      await expectNoError(urls);
      await expect(page.getByRole("button", { name: "Warm 5,000 calls" })).toBeEnabled();
      await page.getByRole("list", { name: "Lists of URLs" }).getByRole("button", { name: "Remove this list" }).click();

      await urls.fill(`http://${domain}/products/1`);
      const languages = page.getByLabel("Languages");
      await languages.fill("xx");
      await page.getByRole("button", { name: "Warm 1 call" }).click();
      await expectError(languages, "“xx” must be a language tag of the form ll-RR, e.g. fr-FR.");
      const summary = page.getByRole("alert").filter({ hasText: "Please correct the fields marked above." });
      await expect(summary).toBeVisible();
      await languages.fill("fr-FR");
      await expectNoError(languages);
      await expect(summary).toHaveCount(0);
    });

    test("the Account page says a wrong current password once, and drops it once retyped", async () => {
      await page.goto("/account");
      const current = page.getByLabel("Current password");
      await current.fill("not the password");
      await page.getByLabel("New password").fill("a newer passphrase");
      await page.getByRole("button", { name: "Change password" }).click();
      await expectError(current, "Not right.");
      await expect(page.getByText("The current password is not right.")).toHaveCount(0);
      await fitsTheWidth(page);
      await shot(page, `forms-account-${viewport.name}`);
      await current.fill(owner.password);
      await expectNoError(current);
      const card = page.locator("section").filter({ has: page.getByRole("heading", { name: "Change your password" }) });
      await expect(card.getByRole("alert")).toHaveCount(0);
    });

    test("the pace, webhook, key, invitation and deploy-hook forms say a wrong field once and drop it once fixed", async () => {
      const summary = page.getByRole("alert").filter({ hasText: "Please correct the fields marked above." });
      await page.goto(siteUrl);
      const concurrency = page.getByLabel("Calls at once");
      await concurrency.fill("0");
      await page.getByRole("button", { name: "Save pace" }).click();
      await expectError(concurrency, "Enter a whole number of calls, 1 or more.");
      await expect(summary).toBeVisible();
      await concurrency.fill("2");
      await expectNoError(concurrency);
      await expect(summary).toHaveCount(0);

      await page.goto("/webhooks");
      const endpoint = page.getByLabel("Endpoint URL");
      await page.getByRole("button", { name: "Add webhook" }).click();
      await expect(endpoint).toHaveAttribute("aria-invalid", "true");
      await expect(summary).toBeVisible();
      await endpoint.fill("https://hooks.example.org/preheat");
      await expectNoError(endpoint);
      await expect(summary).toHaveCount(0);

      await page.goto("/keys");
      const keyName = page.getByLabel("Key name");
      await page.getByRole("button", { name: "Create key" }).click();
      await expectError(keyName, "Give the key a name.");
      await keyName.fill("CI");
      await expectNoError(keyName);
      await page.getByRole("button", { name: "Warm from CI" }).click();
      await expect(summary).toHaveCount(0);

      await page.goto("/team");
      const invitee = page.getByLabel("E-mail address");
      await page.getByRole("button", { name: "Send invitation" }).click();
      await expectError(invitee, "Give an e-mail address.");
      await invitee.fill("colleague@example.com");
      await expectNoError(invitee);
      await expect(summary).toHaveCount(0);
      await fitsTheWidth(page);
    });
  });
}
