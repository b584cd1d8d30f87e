import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { openApiDocument } from "./document";

it("the committed client types are what openapi-typescript makes of the document today (npm run openapi:types)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "preheat-openapi-"));
  try {
    writeFileSync(path.join(dir, "openapi.json"), JSON.stringify(openApiDocument()));
    execFileSync(path.resolve("node_modules/.bin/openapi-typescript"), [path.join(dir, "openapi.json"), "-o", path.join(dir, "schema.d.ts")], { stdio: "ignore" });
    expect(readFileSync(path.join(dir, "schema.d.ts"), "utf8")).toBe(readFileSync("lib/openapi/client/schema.d.ts", "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
