import { defineConfig, devices } from "@playwright/test";
import { e2ePorts } from "./e2e/support/ports";

/**
 * The dashboard in a real browser (Debian's Chromium: browser downloads are not possible here),
 * against the production build on a fresh embedded database, with a local origin standing in for
 * customers' sites (e2e/global-setup.ts starts both).
 */
export default defineConfig({
  testDir: "e2e",
  // e2e/cache is a Vitest suite (a real cache in front of a local origin), not a browser's.
  testIgnore: ["cache/**"],
  outputDir: "test-results/e2e",
  globalSetup: "./e2e/global-setup.ts",
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["html", { outputFolder: "playwright-report", open: "never" }]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL: `http://127.0.0.1:${e2ePorts.app}`,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
    },
  },
});
