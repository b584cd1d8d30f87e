import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/** A part of a prepared statement (lib/db/prepared.ts): its text's name, the text, and its placeholders' values. */
export type PreparedPart = { shape: string; build: () => SQL; values: Record<string, unknown> };

/**
 * `insert into <table> (<columns>) select <values> from <source> returning <returning>`: one row
 * written only when `source` yields one, for a statement whose earlier parts decide whether it is
 * written (a quota granted in the same statement). The values go through their columns' own
 * encoding, as `db.insert(table).values(...)` sends them, each cast to its column's type, which a
 * select list does not infer; columns left out take their defaults. They are placeholders
 * (`value_<key>`), so that the text is built once for each `name` (the call site: its source and
 * returning never change) and set of columns given.
 */
export function insertSelecting<T extends PgTable>(name: string, table: T, values: Partial<T["$inferInsert"]>, source: SQL, returning: SQL): PreparedPart {
  const given = Object.entries(values).filter(([, value]) => value !== undefined);
  // A null is written in the text: a placeholder's value goes through its column's encoder even when
  // null, and a JSON column's would make it JSON's null.
  const placed = given.filter(([, value]) => value !== null);
  const build = () => {
    const columns = getTableColumns(table);
    const names = given.map(([key]) => sql.identifier(columns[key]!.name));
    const cells = given.map(([key, value]) => {
      const column = columns[key]!;
      const cell = value === null ? sql`null` : sql.param(sql.placeholder(`value_${key}`), column);
      return sql`${cell}::${sql.raw(column.getSQLType())}`;
    });
    return sql`insert into ${table} (${sql.join(names, sql`, `)}) select ${sql.join(cells, sql`, `)} from ${source} returning ${returning}`;
  };
  return {
    shape: `${name}(${given.map(([key, value]) => (value === null ? `${key}=null` : key)).join(",")})`,
    build,
    values: Object.fromEntries(placed.map(([key, value]) => [`value_${key}`, value])),
  };
}
