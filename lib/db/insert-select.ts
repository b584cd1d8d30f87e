import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * `insert into <table> (<columns>) select <values> from <source> returning <returning>`: one row
 * written only when `source` yields one, for a statement whose earlier parts decide whether it is
 * written (a quota granted in the same statement). The values go through their columns' own
 * encoding, as `db.insert(table).values(...)` sends them, each cast to its column's type, which a
 * select list does not infer; columns left out take their defaults.
 */
export function insertSelecting<T extends PgTable>(table: T, values: Partial<T["$inferInsert"]>, source: SQL, returning: SQL): SQL {
  const columns = getTableColumns(table);
  const given = Object.entries(values).filter(([, value]) => value !== undefined);
  const names = given.map(([key]) => sql.identifier(columns[key]!.name));
  const cells = given.map(([key, value]) => {
    const column = columns[key]!;
    return sql`${sql.param(value, column)}::${sql.raw(column.getSQLType())}`;
  });
  return sql`insert into ${table} (${sql.join(names, sql`, `)}) select ${sql.join(cells, sql`, `)} from ${source} returning ${returning}`;
}
