import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**"],
    globalSetup: ["./app/api/v1/__tests__/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One server and one database for the whole run: test files share them, each with its own accounts.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
