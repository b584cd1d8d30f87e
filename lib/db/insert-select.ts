import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { encodedPlaceholder, encodedValue } from "./prepared";

/** A part of a prepared statement (lib/db/prepared.ts): its text's name, the text, and its placeholders' values. */
export type PreparedPart = { shape: string; build: () => SQL; values: Record<string, unknown> };

/**
 * `insert into <table> (<columns>) select <values> from <source> returning <returning>`: one row
 * written only when `source` yields one, for a statement whose earlier parts decide whether it is
 * written (a quota granted in the same statement). The values go through their columns' own
 * encoding, as `db.insert(table).values(...)` sends them, each cast to its column's type, which a
 * select list does not infer; columns left out take their defaults. They are placeholders
 * (`value_<key>`, encodedPlaceholder), so that the text is built once for each `name` (the call
 * site: its source and returning never change) and set of columns given.
 */
export function insertSelecting<T extends PgTable>(name: string, table: T, values: Partial<T["$inferInsert"]>, source: SQL, returning: SQL): PreparedPart {
  const columns = getTableColumns(table);
  const given = Object.entries(values).filter(([, value]) => value !== undefined);
  const build = () => {
    const names = given.map(([key]) => sql.identifier(columns[key]!.name));
    const cells = given.map(([key]) => encodedPlaceholder(`value_${key}`, columns[key]!));
    return sql`insert into ${table} (${sql.join(names, sql`, `)}) select ${sql.join(cells, sql`, `)} from ${source} returning ${returning}`;
  };
  return {
    shape: `${name}(${given.map(([key]) => key).join(",")})`,
    build,
    values: Object.fromEntries(given.map(([key, value]) => [`value_${key}`, encodedValue(columns[key]!, value)])),
  };
}
