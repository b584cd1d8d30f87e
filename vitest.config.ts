import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // In-process tests of lib/, inngest/ and the dashboard's pure modules (components/), most of them on an embedded database (PGlite): integration tests.
        test: { name: "integration", include: ["lib/**/*.test.ts", "inngest/**/*.test.ts", "components/**/*.test.ts"] },
      },
      {
        extends: true,
        // Drives the production build over HTTP: one server and one database for every file,
        // each file with accounts of its own.
        test: { name: "api", include: ["app/**/*.test.ts"], globalSetup: ["./app/api/v1/__tests__/support/global-setup.ts"] },
      },
      {
        extends: true,
        // What a warm does for visitors, through a real cache (Debian's Varnish) keyed as real sites
        // key theirs, in front of a local origin: e2e/cache. Needs the production build.
        test: { name: "cache", include: ["e2e/cache/**/*.test.ts"], globalSetup: ["./e2e/cache/global-setup.ts"], testTimeout: 180_000 },
      },
      {
        extends: true,
        // The deployment of docs/guide/operators/installing.md (PostgreSQL, two web servers, two workers, nginx) driven
        // through nginx: deploy/smoke.test.ts. Needs the production build and Debian's nginx.
        test: { name: "deploy", include: ["deploy/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 420_000 },
      },
    ],
  },
});
