import path from "node:path";
import { describe, expect, it } from "vitest";
import { twinSource, twinsOutOfStep } from "./public-routes";

const root = path.resolve(import.meta.dirname, "../..");

describe("app/v1: the public paths of the handlers under app/api/v1", () => {
  it("has one twin of each handler file, as it must be, and no other route (run npm run routes:v1 after adding or changing one)", () => {
    expect(twinsOutOfStep(root)).toEqual({ stale: [], leftOver: [] });
  });

  it("re-exports exactly the methods the handler file exports", () => {
    const handler = 'export const GET = withApiKey(a, b);\nconst POST = 1;\nexport const { PUT, DELETE } = otherMethods("GET");\n';
    expect(twinSource("runs/[runId]", handler)).toContain('export { GET, PUT, DELETE } from "@/app/api/v1/runs/[runId]/route";');
  });
});
