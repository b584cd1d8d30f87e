import type { Database } from "./index";

type Global = typeof globalThis & { __preheatPerDatabase?: Map<string, WeakMap<Database, unknown>> };

/**
 * The one value of `name` for `db` in this process, made by `create` the first time. On globalThis:
 * Next.js bundles a module once per route, and state such as a cache or an in-memory budget must be
 * one for all of them. Per database, as tests (and the operator CLI) may open several.
 */
export function oncePerDatabase<T>(name: string, db: Database, create: () => T): T {
  const g = globalThis as Global;
  g.__preheatPerDatabase ??= new Map();
  let byDatabase = g.__preheatPerDatabase.get(name);
  if (!byDatabase) g.__preheatPerDatabase.set(name, (byDatabase = new WeakMap()));
  if (!byDatabase.has(db)) byDatabase.set(db, create());
  return byDatabase.get(db) as T;
}
