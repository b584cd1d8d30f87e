import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_DOC, configTable, TABLE_END, TABLE_START, withConfigTable } from "./docs";
import { VARIABLES } from "./variables";

const root = path.resolve(import.meta.dirname, "../..");

describe("the generated configuration table", () => {
  it("is the operators' configuration page's, as the declarations make it now (run npm run config:docs after changing one)", () => {
    const page = readFileSync(path.join(root, CONFIG_DOC), "utf8");
    expect(page).toContain(TABLE_START);
    expect(withConfigTable(page)).toBe(page);
  });

  it("has one row per variable, one for a family, with its default", () => {
    const table = configTable();
    for (const [name, variable] of Object.entries(VARIABLES)) expect(table).toContain(`| \`${variable.row ?? name}\` | ${variable.defaultText} |`);
    expect(table.match(/PREHEAT_REGION_PROXY_<CODE>/g)).toHaveLength(1);
    expect(table).toContain("| `PREHEAT_SITE_CONCURRENCY` | `4` |");
    expect(table).toContain("| `PREHEAT_LOG_LEVEL` | `info` |");
  });

  it("replaces what is between the markers only", () => {
    const document = `# Title\n\nBefore.\n\n${TABLE_START}\n| old | table |\n${TABLE_END}\n\nAfter.\n`;
    expect(withConfigTable(document, "NEW")).toBe(`# Title\n\nBefore.\n\n${TABLE_START}\nNEW\n${TABLE_END}\n\nAfter.\n`);
    expect(withConfigTable("no markers")).toBeUndefined();
    expect(withConfigTable(`${TABLE_END} then ${TABLE_START}`)).toBeUndefined();
  });
});
