import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expectedTwins, twinsOutOfStep } from "./public-routes";

/** `npm run routes:v1`: writes app/v1's twins of the handlers under app/api/v1 and removes those left over (lib/api/public-routes.ts). */
const root = path.resolve(import.meta.dirname, "../..");
const expected = expectedTwins(root);
const { stale, leftOver } = twinsOutOfStep(root, expected);
for (const file of stale) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), expected.get(file)!);
  console.log(`wrote ${file}`);
}
for (const file of leftOver) {
  rmSync(path.join(root, file));
  console.log(`removed ${file}`);
}
if (!stale.length && !leftOver.length) console.log("app/v1: up to date");
