import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * `npm run screenshots`: the suite's set-up (the production build, which it does not make: run
 * `npm run build` first), running only e2e/docs-screenshots.ts, which writes docs/screenshots/.
 */
export default defineConfig(base, {
  testMatch: "docs-screenshots.ts",
  reporter: "list",
});
