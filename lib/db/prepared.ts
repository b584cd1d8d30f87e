import { type Column, type SQL, sql } from "drizzle-orm";
import { PgDialect, type PgPreparedQuery, type PreparedQueryConfig } from "drizzle-orm/pg-core";
import type { Database } from "@/lib/db";

/**
 * A statement built once per database, then run with its placeholders' values (`sql.placeholder`).
 * Drizzle builds a statement's text anew on every run, and for the small statements of a busy path
 * (a warm request's) the building costs more than the embedded database takes to run them
 * (docs/benchmarks.md). Kept per database, so a statement never runs on another one. On a PostgreSQL
 * server, a statement drizzle prepares under a name (`.prepare(name)`, unique in the code base) is also
 * parsed once per connection; the embedded database prepares every statement by its text anyway
 * (pglite-statements.ts).
 */
export function preparedOnce<Prepared>(build: (db: Database) => Prepared): (db: Database) => Prepared {
  const byDatabase = new WeakMap<Database, Prepared>();
  return (db) => {
    let prepared = byDatabase.get(db);
    if (!prepared) {
      prepared = build(db);
      byDatabase.set(db, prepared);
    }
    return prepared;
  };
}

const dialect = new PgDialect();
const rawByDatabase = new WeakMap<Database, Map<string, PgPreparedQuery<PreparedQueryConfig>>>();

/**
 * A statement written as `sql` (a statement drizzle's builders cannot say) with `sql.placeholder`s,
 * built once per database and `shape`: a name for its text, which must change whenever the text does.
 * Runs it with its placeholders' values; answers what `db.execute` answers (read it with rowsOf).
 */
export function executePrepared(db: Database, shape: string, build: () => SQL, values: Record<string, unknown>): Promise<unknown> {
  let byShape = rawByDatabase.get(db);
  if (!byShape) rawByDatabase.set(db, (byShape = new Map()));
  let prepared = byShape.get(shape);
  if (!prepared) {
    prepared = db._.session.prepareQuery(dialect.sqlToQuery(build()), undefined, shape, false);
    byShape.set(shape, prepared);
  }
  return prepared.execute(values);
}

/**
 * A value for a placeholder of `column`, written `encodedPlaceholder(name, column)`: encoded here
 * by the column, as drizzle encodes a value it builds into a statement. A null stays SQL's null:
 * drizzle runs a placeholder's value through its column's encoder even when null, and a JSON
 * column's encoder makes it JSON's `null`.
 */
export function encodedValue(column: Column, value: unknown): unknown {
  return value === null || value === undefined ? null : column.mapToDriverValue(value);
}

/** A placeholder for a value encoded by encodedValue, cast to its column's type. */
export function encodedPlaceholder(name: string, column: Column): SQL {
  return sql`${sql.placeholder(name)}::${sql.raw(column.getSQLType())}`;
}
