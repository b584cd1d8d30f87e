import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CONFIG_DOC, withConfigTable } from "./docs";

/**
 * `npm run config:docs`: writes the table of every configuration variable between the
 * `<!-- config:start -->` and `<!-- config:end -->` markers of the operators' configuration page.
 * `-- --check` only says whether it is up to date.
 */
const root = path.resolve(import.meta.dirname, "../..");
const check = process.argv.includes("--check");

const full = path.join(root, CONFIG_DOC);
if (!existsSync(full)) throw new Error(`${CONFIG_DOC} is missing.`);
const before = readFileSync(full, "utf8");
const after = withConfigTable(before);
if (after === undefined) throw new Error(`${CONFIG_DOC} has no <!-- config:start --> … <!-- config:end --> markers.`);
if (after === before) {
  console.log(`${CONFIG_DOC}: up to date`);
} else if (check) {
  console.log(`${CONFIG_DOC}: out of date (run npm run config:docs)`);
  process.exitCode = 1;
} else {
  writeFileSync(full, after);
  console.log(`${CONFIG_DOC}: table written`);
}
