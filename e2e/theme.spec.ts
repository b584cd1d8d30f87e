import { type Browser, expect, type Page, test } from "@playwright/test";
import { axeFindings } from "./support/axe";
import { dashboardPaths, signUpWithData } from "./support/dashboard-data";

/**
 * The colour theme: System (the default, following the system's setting), Light or Dark, chosen in the
 * header, kept in the browser and applied before the first paint; and every page read by axe-core in
 * both themes, signed in with data and signed out.
 */
test.describe.configure({ mode: "serial" });

const themes = ["light", "dark"] as const;
type Theme = (typeof themes)[number];

/** The pages a visitor meets signed out. */
const publicPaths = ["/", "/signin", "/signup", "/docs/api", "/bot"];

let page: Page;
let paths: string[] = [];

test.beforeAll(async ({ browser }) => {
  // axe-core's builder reads a page of a context of our own, not one of browser.newPage().
  page = await (await browser.newContext()).newPage();
  paths = dashboardPaths(await signUpWithData(page, "theme"));
});

test.afterAll(() => page.context().close());

/** The theme the page shows now, as the script and the toggle set it on the root element. */
const shownTheme = (on: Page) => on.locator("html").getAttribute("data-theme");

/** Axe's serious and critical findings on each path in `theme`, reached through the System choice and the emulated system setting. */
async function axeFindingsOn(on: Page, theme: Theme, pathsToRead: string[]): Promise<string[]> {
  await on.emulateMedia({ colorScheme: theme });
  const findings: string[] = [];
  for (const path of pathsToRead) {
    await on.goto(path);
    await on.waitForLoadState("networkidle");
    await expect(on.locator("html")).toHaveAttribute("data-theme", theme);
    findings.push(...(await axeFindings(on, `${path} [${theme}]`)));
  }
  return findings;
}

async function signedOutPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

for (const theme of themes) {
  test(`every dashboard page passes axe (WCAG 2.1 A and AA) in the ${theme} theme`, async () => {
    // 20 pages, each read whole by axe: some 3 minutes, the API reference alone 40 seconds.
    test.setTimeout(600_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await axeFindingsOn(page, theme, paths)).toEqual([]);
  });

  test(`the signed-out pages pass axe (WCAG 2.1 A and AA) in the ${theme} theme`, async ({ browser }) => {
    test.setTimeout(300_000);
    const visitor = await signedOutPage(browser);
    expect(await axeFindingsOn(visitor, theme, publicPaths)).toEqual([]);
    await visitor.context().close();
  });
}

test("System follows the system's setting, also while the page is open", async () => {
  await page.goto("/sites");
  await expect(page.getByRole("radio", { name: "System" })).toBeChecked();
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => shownTheme(page)).toBe("dark");
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(() => shownTheme(page)).toBe("light");
});

test("the header's toggle switches the theme, and the choice survives a reload", async () => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/usage");
  const toggle = page.getByRole("radiogroup", { name: "Theme" });
  await toggle.getByRole("radio", { name: "Dark" }).check();
  expect(await shownTheme(page)).toBe("dark");
  // The page's own colours follow, not only the attribute: the body is dark.
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const darkBackground = await background();
  await page.reload();
  await expect(toggle.getByRole("radio", { name: "Dark" })).toBeChecked();
  expect(await shownTheme(page)).toBe("dark");
  // A chosen theme holds against the system's setting.
  await page.emulateMedia({ colorScheme: "light" });
  expect(await shownTheme(page)).toBe("dark");
  await toggle.getByRole("radio", { name: "Light" }).check();
  expect(await shownTheme(page)).toBe("light");
  expect(await background()).not.toBe(darkBackground);
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await shownTheme(page)).toBe("light");
  await toggle.getByRole("radio", { name: "System" }).check();
  expect(await shownTheme(page)).toBe("dark");
  await page.reload();
  await expect(toggle.getByRole("radio", { name: "System" })).toBeChecked();
});

test("the toggle works on a phone's screen", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/sites");
  const dark = page.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name: "Dark" });
  await dark.check();
  expect(await shownTheme(page)).toBe("dark");
  await page.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name: "System" }).check();
});

test("the chosen theme is on the page before any of its scripts but the first runs: no flash of the other theme", async ({ browser }) => {
  const visitor = await signedOutPage(browser);
  await visitor.emulateMedia({ colorScheme: "light" });
  await visitor.goto("/signin");
  await visitor.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name: "Dark" }).check();
  // Without the application's scripts, only the inline one in the head can set the theme.
  await visitor.route("**/_next/static/**/*.js", (route) => route.abort());
  await visitor.goto("/signin");
  expect(await shownTheme(visitor)).toBe("dark");
  expect(await visitor.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("dark");
  await visitor.context().close();
});
