import { expect, type Page, test } from "@playwright/test";
import { axeFindings } from "./support/axe";
import { dashboardPaths, signUpWithData } from "./support/dashboard-data";
import { cli } from "./support/emails";

/**
 * Layouts (issue 60, item 10). On a phone (390 × 844), in the light and the dark theme, no page of the
 * dashboard, of the operator console or of the signed-out site scrolls sideways (a wide table or a
 * long token scrolls or wraps inside its own box), and nothing on it moves once it has loaded: what
 * arrives after the first paint (a query's answer, the organization menu, the first steps) takes a
 * place kept for it; and axe finds nothing serious there. At a laptop's width, nothing scrolls
 * sideways either, the header holds one row with the organization menu and the operator's link in
 * it, and the console passes axe in both themes (theme.spec.ts reads the dashboard's pages there).
 */
const phone = { width: 390, height: 844 };
const laptop = { width: 1280, height: 800 };
const themes = ["light", "dark"] as const;

/**
 * The cumulative layout shift a page may have once loaded. Web Vitals call below 0.1 good; a page
 * whose late content takes a kept place scores 0, and 0.01 leaves room only for a line of text
 * reflowing by a pixel, not for a card pushed down.
 */
const shiftLimit = 0.01;

/** What a visitor reads signed out: the home page, the sign-in and sign-up pages, and every guide. */
const publicPaths = [
  "/",
  "/signin",
  "/signin/check-email",
  "/signup",
  "/bot",
  "/docs/api",
  // The guide: its front page and a page of each kind (a wide table, code, a picture); e2e/guide.spec.ts reads every page at 390.
  "/docs",
  "/docs/site-owners/first-steps",
  "/docs/site-owners/bot-protection",
  "/docs/site-owners/change-receivers/shopify",
  "/docs/operators/configuration",
];

let owner: Page;
let visitor: Page;
/** The dashboard's pages, then the operator console's: the owner is also the service's operator. */
let signedInPaths: string[] = [];
let operatorPaths: string[] = [];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  owner = await (await browser.newContext()).newPage();
  const data = await signUpWithData(owner, "layout");
  await cli("users", "grant-operator", "--email", data.email);
  await owner.goto("/operator");
  await owner.getByLabel("Search organizations").fill(data.email);
  await owner.getByRole("button", { name: "Search" }).click();
  await expect(owner.getByTestId("organization-row")).toHaveCount(1);
  const organization = await owner.getByTestId("organization-row").getByRole("link").getAttribute("href");
  if (!organization) throw new Error("the organization's row links nowhere");
  operatorPaths = ["/operator", organization, "/operator/plans", "/operator/workers", "/operator/queues", "/operator/keys", "/operator/emails"];
  signedInPaths = [...dashboardPaths(data), ...operatorPaths];
  visitor = await (await browser.newContext()).newPage();
});

test.afterAll(async () => {
  for (const page of [owner, visitor]) await page?.context().close();
});

/**
 * What is wrong with the layout of `path` at `width`, one line each: the page wider than the screen
 * (with the outermost elements that stick out and the widest of them, so that the line names the
 * culprit), and the layout shifts once loaded (with the elements that moved).
 */
async function layoutProblems(page: Page, path: string, width: number): Promise<string[]> {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  // What follows the last answer (a render, a font, a resize observer) has its frame.
  await page.waitForTimeout(300);
  const problems = await page.evaluate(
    async ({ width, shiftLimit }) => {
      const describe = (node: Node | null | undefined): string => {
        if (!(node instanceof Element)) return node ? (node.textContent ?? "").trim().slice(0, 40) || "(text)" : "(removed)";
        const testId = node.getAttribute("data-testid");
        const classes = typeof node.className === "string" ? node.className.trim().split(/\s+/).slice(0, 5).join(".") : "";
        const text = (node.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
        return `<${node.tagName.toLowerCase()}${testId ? `[data-testid=${testId}]` : ""}${classes ? `.${classes}` : ""}> "${text}"`;
      };
      const found: string[] = [];
      const root = document.documentElement;
      if (root.scrollWidth > width) {
        // An element inside a box that scrolls or clips is that box's business, not the page's.
        const contained = (element: Element) => {
          for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) if (getComputedStyle(box).overflowX !== "visible") return true;
          return false;
        };
        const wide = [...document.body.querySelectorAll("*")].filter((element) => element.getBoundingClientRect().right > width + 0.5 && !contained(element));
        const outermost = wide.filter((element) => !element.parentElement || !wide.includes(element.parentElement)).slice(0, 3);
        const widest = wide.reduce<Element | null>((best, element) => (!best || element.getBoundingClientRect().width > best.getBoundingClientRect().width ? element : best), null);
        found.push(`${root.scrollWidth} px wide; sticking out: ${outermost.map(describe).join(", ")}; widest: ${describe(widest)} (${Math.round(widest?.getBoundingClientRect().width ?? 0)} px)`);
      }
      const shifts = await new Promise<PerformanceEntry[]>((resolve) => {
        const entries: PerformanceEntry[] = [];
        new PerformanceObserver((list) => entries.push(...list.getEntries())).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve(entries), 100);
      });
      type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node: Node | null }[] };
      const moved = (shifts as Shift[]).filter((shift) => !shift.hadRecentInput);
      const total = moved.reduce((sum, shift) => sum + shift.value, 0);
      if (total >= shiftLimit) {
        const each = moved.map((shift) => `${shift.value.toFixed(3)} at ${Math.round(shift.startTime)} ms (${shift.sources.map((source) => describe(source.node)).join(", ")})`);
        found.push(`moved after load, ${total.toFixed(3)} in all: ${each.join("; ")}`);
      }
      return found;
    },
    { width, shiftLimit },
  );
  return problems.map((problem) => `${path}: ${problem}`);
}

async function problemsOnEveryPage(page: Page, paths: string[], theme: (typeof themes)[number]): Promise<string[]> {
  await page.setViewportSize(phone);
  await page.emulateMedia({ colorScheme: theme });
  const problems: string[] = [];
  for (const path of paths) {
    problems.push(...(await layoutProblems(page, path, phone.width)));
    problems.push(...(await axeFindings(page, `${path} [${theme}, 390 px]`)));
  }
  return problems;
}

for (const theme of themes) {
  test(`signed in, at 390 × 844 in the ${theme} theme, no page of the dashboard or the console scrolls sideways, moves after load or fails axe`, async () => {
    // Some 35 pages, each read whole by axe, the API reference alone 40 seconds.
    test.setTimeout(600_000);
    expect(await problemsOnEveryPage(owner, signedInPaths, theme)).toEqual([]);
  });

  test(`signed out, at 390 × 844 in the ${theme} theme, no page scrolls sideways, moves after load or fails axe`, async () => {
    test.setTimeout(300_000);
    expect(await problemsOnEveryPage(visitor, publicPaths, theme)).toEqual([]);
  });
}

test("at 1280 × 800, no page scrolls sideways, the console passes axe in both themes, and the header holds one row with the organization menu and the console's link", async () => {
  test.setTimeout(300_000);
  await owner.setViewportSize(laptop);
  const problems: string[] = [];
  for (const theme of themes) {
    await owner.emulateMedia({ colorScheme: theme });
    for (const path of signedInPaths) {
      await owner.goto(path);
      await owner.waitForLoadState("networkidle");
      const overflow = await owner.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) problems.push(`${path} [${theme}]: ${overflow} px too wide`);
      if (operatorPaths.includes(path)) problems.push(...(await axeFindings(owner, `${path} [${theme}, 1280 px]`)));
    }
  }
  expect(problems).toEqual([]);

  await owner.goto("/sites");
  const header = owner.getByRole("navigation", { name: "Main" });
  await expect(header.getByLabel("Organization")).toBeVisible();
  const parts = [
    header.getByRole("link", { name: "Preheat" }),
    header.getByRole("link", { name: "Guide" }),
    header.getByRole("link", { name: "Operator console" }),
    header.getByLabel("Organization"),
    header.getByRole("button", { name: "Sign out" }),
  ];
  const boxes = await Promise.all(parts.map((part) => part.boundingBox()));
  const centres = boxes.map((box) => (box ? box.y + box.height / 2 : Number.NaN));
  expect(Math.max(...centres) - Math.min(...centres), `centres ${centres.join(", ")}`).toBeLessThan(4);
});
