import { VARIABLES } from "./variables";

/** The operators' configuration page, the one document that carries the generated table. */
export const CONFIG_DOC = "docs/guide/operators/configuration.md";

/** The markers between which `npm run config:docs` writes the table in CONFIG_DOC. */
export const TABLE_START = "<!-- config:start -->";
export const TABLE_END = "<!-- config:end -->";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The markdown table of every variable: one row each (one for a family such as PREHEAT_REGION_PROXY_<CODE>). */
export function configTable(): string {
  const rows = new Map<string, string>();
  for (const [name, variable] of Object.entries(VARIABLES)) {
    const row = variable.row ?? name;
    if (rows.has(row)) continue;
    const accepts = variable.secret ? `${variable.accepts} (secret: never printed)` : variable.accepts;
    rows.set(row, `| \`${row}\` | ${cell(variable.defaultText)} | ${cell(accepts)} | ${cell(variable.description)} |`);
  }
  return [
    "<!-- Generated from lib/config/variables.ts by `npm run config:docs`: edit the declarations there, not this table. -->",
    "",
    "| Variable | Default | Accepted values | Meaning |",
    "|---|---|---|---|",
    ...rows.values(),
  ].join("\n");
}

/** The document with the table between its markers, or undefined when it has no (well-ordered) markers. */
export function withConfigTable(document: string, table = configTable()): string | undefined {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start < 0 || end < start) return undefined;
  return `${document.slice(0, start + TABLE_START.length)}\n${table}\n${document.slice(end)}`;
}
