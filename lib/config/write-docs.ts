import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { withConfigTable } from "./docs";

/**
 * `npm run config:docs`: writes the table of every configuration variable between the
 * `<!-- config:start -->` and `<!-- config:end -->` markers of README.md (required) and of
 * docs/deploy.md (when it exists and has them). `-- --check` only says whether they are up to date.
 */
const root = path.resolve(import.meta.dirname, "../..");
const check = process.argv.includes("--check");
let stale = 0;

for (const [file, required] of [
  ["README.md", true],
  ["docs/deploy.md", false],
] as const) {
  const full = path.join(root, file);
  if (!existsSync(full)) {
    if (required) throw new Error(`${file} is missing.`);
    continue;
  }
  const before = readFileSync(full, "utf8");
  const after = withConfigTable(before);
  if (after === undefined) {
    if (required) throw new Error(`${file} has no <!-- config:start --> … <!-- config:end --> markers.`);
    continue;
  }
  if (after === before) {
    console.log(`${file}: up to date`);
  } else if (check) {
    stale++;
    console.log(`${file}: out of date (run npm run config:docs)`);
  } else {
    writeFileSync(full, after);
    console.log(`${file}: table written`);
  }
}
if (stale) process.exitCode = 1;
