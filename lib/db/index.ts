import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "@/drizzle/schema";
import { setting } from "@/lib/config";
import { lockEmbeddedDatabase } from "./embedded-lock";
import { maintainEmbedded } from "./embedded-maintenance";
import { takeStatementTurns } from "./statement-turns";
import { dataDirectory } from "./paths";

type Schema = typeof schema;
/** Both drivers (PGlite, postgres) give this shape; domain code only sees it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseHandle = {
  db: Database;
  /** `postgres` (DATABASE_URL) or `embedded` (this process owns the PGlite directory). */
  kind: "postgres" | "embedded";
  close: () => Promise<void>;
  /** The raw PGlite instance of the embedded database (pg-boss needs it). */
  pglite?: import("@electric-sql/pglite").PGlite;
  /** A PostgreSQL server's LISTEN on `channel`: `onNotify` gets each NOTIFY's payload; answers how to stop listening. */
  listen?: (channel: string, onNotify: (payload: string) => void) => Promise<() => Promise<void>>;
};

export type OpenOptions = {
  /** Overrides PREHEAT_DATA_DIR; `memory://` for a throw-away database. */
  dataDir?: string;
};

const migrationsFolder = path.join(process.cwd(), "drizzle", "migrations");

type Listen = NonNullable<DatabaseHandle["listen"]>;

/**
 * Databases no other process can reach: the embedded ones (PGlite, locked to the process that
 * opened it), each with its LISTEN (listenOwned). Kept on globalThis, like the handle: Next.js bundles
 * this module once per entry point (instrumentation, which opens the database, and each route), and a
 * module-level map would be empty in the routes.
 */
function ownedDatabases(): WeakMap<Database, Listen> {
  const g = globalThis as Global;
  g.__preheatOwnedDatabases ??= new WeakMap();
  return g.__preheatOwnedDatabases;
}

/** True for the embedded database: what this process keeps in memory about it is all there is to know. */
export function ownedByThisProcess(db: Database): boolean {
  return ownedDatabases().has(db);
}

/**
 * On the embedded database, LISTEN on `channel`: each NOTIFY reaches
 * `onNotify` before the statement that committed it returns, so a process may keep what it read
 * until told of a change. Undefined on a PostgreSQL server, whose notices arrive some time after.
 */
export function listenOwned(db: Database, channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> | undefined {
  return ownedDatabases().get(db)?.(channel, onNotify);
}

export async function openDatabase(options: OpenOptions = {}): Promise<DatabaseHandle> {
  const url = setting("DATABASE_URL");
  if (url) return openPostgres(url);
  return openEmbedded(options.dataDir ?? dataDirectory());
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  // JIT off for this application's sessions: its statements read a few runs' rows, yet a generic plan's
  // estimates can put one past jit_above_cost (a run's figures did, counting a hundred rows for each
  // JSON list of ids), and compiling it took 1.2 to 4 s for 20 ms of execution (docs/benchmarks.md).
  const sql = postgres(url, { max: setting("DATABASE_POOL_SIZE"), onnotice: () => {}, connection: { jit: "off" } });
  const db = drizzle({ client: sql, schema });
  // Several processes (server, workers) may start together: migrate one at a time.
  const lock = await sql.reserve();
  try {
    await lock`select pg_advisory_lock(7341853)`;
    await migrate(db, { migrationsFolder });
  } finally {
    await lock`select pg_advisory_unlock(7341853)`;
    lock.release();
  }
  const listen = async (channel: string, onNotify: (payload: string) => void) => (await sql.listen(channel, onNotify)).unlisten;
  return { db: db as unknown as Database, kind: "postgres", close: () => sql.end({ timeout: 5 }), listen };
}

async function openEmbedded(dataDir: string): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const { listenEmbedded, reuseStatements } = await import("./pglite-statements");
  const inMemory = dataDir === "memory://";
  const unlock = inMemory ? () => {} : lockEmbeddedDatabase(dataDir);
  try {
    const pglite = await PGlite.create(inMemory ? dataDir : path.join(dataDir, "pgdata"));
    const db = drizzle({ client: pglite, schema });
    await migrate(db, { migrationsFolder });
    // After the migrations: they run once, and change the tables that statements are prepared on.
    reuseStatements(pglite);
    takeStatementTurns(pglite);
    const maintenance = await maintainEmbedded(pglite);
    const handle: DatabaseHandle = {
      db: db as unknown as Database,
      kind: "embedded",
      pglite,
      close: async () => {
        await maintenance.stop();
        await pglite.close();
        unlock();
      },
    };
    ownedDatabases().set(handle.db, (channel, onNotify) => listenEmbedded(pglite, channel, onNotify));
    return handle;
  } catch (error) {
    unlock();
    throw error;
  }
}

type Global = typeof globalThis & { __preheatDatabase?: Promise<DatabaseHandle>; __preheatOwnedDatabases?: WeakMap<Database, Listen> };

/** The process-wide database, opened once per process (and never by two processes on one PGlite directory). */
export function getDatabaseHandle(): Promise<DatabaseHandle> {
  const g = globalThis as Global;
  g.__preheatDatabase ??= openDatabase().catch((error) => {
    g.__preheatDatabase = undefined;
    throw error;
  });
  return g.__preheatDatabase;
}

export async function getDb(): Promise<Database> {
  return (await getDatabaseHandle()).db;
}

export async function closeDatabase(): Promise<void> {
  const g = globalThis as Global;
  const handle = g.__preheatDatabase;
  g.__preheatDatabase = undefined;
  if (handle) await (await handle).close();
}

/** Postgres unique_violation, through either driver. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: string }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
