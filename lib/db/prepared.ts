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
