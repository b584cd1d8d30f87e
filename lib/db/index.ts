import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "@/drizzle/schema";
import { dataDirectory, embeddedSocketPath } from "./socket-path";

export type Schema = typeof schema;
/** Both drivers (PGlite, postgres) give this shape; domain code only sees it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseHandle = {
  db: Database;
  /** `postgres` (DATABASE_URL), `embedded` (this process owns PGlite) or `shared` (a server's PGlite over its socket). */
  kind: "postgres" | "embedded" | "shared";
  close: () => Promise<void>;
  /** The raw PGlite instance when this process owns it (pg-boss and the socket server need it). */
  pglite?: import("@electric-sql/pglite").PGlite;
};

export type OpenOptions = {
  /** Serve the embedded database to other local processes (the running server does). */
  share?: boolean;
  /** Use a running server's shared database when one answers (the CLI does). */
  preferShared?: boolean;
  /** Overrides PREHEAT_DATA_DIR; `memory://` for a throw-away database. */
  dataDir?: string;
};

const migrationsFolder = path.join(process.cwd(), "drizzle", "migrations");

export async function openDatabase(options: OpenOptions = {}): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) return openPostgres(process.env.DATABASE_URL);
  const dataDir = options.dataDir ?? dataDirectory();
  const socketPath = dataDir === "memory://" ? undefined : embeddedSocketPath(dataDir);
  if (socketPath && existsSync(socketPath)) {
    const shared = await connectShared(socketPath);
    if (shared && options.preferShared) return shared;
    if (shared) {
      await shared.close();
      throw new Error(`Another Preheat process is already using the embedded database in ${dataDir}. Stop it, or set PREHEAT_DATA_DIR to another directory.`);
    }
  }
  return openEmbedded(dataDir, options.share ? socketPath : undefined);
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const sql = postgres(url, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), onnotice: () => {} });
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
  return { db: db as unknown as Database, kind: "postgres", close: () => sql.end({ timeout: 5 }) };
}

async function openEmbedded(dataDir: string, shareAt?: string): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  let location = dataDir;
  if (dataDir !== "memory://") {
    mkdirSync(dataDir, { recursive: true });
    location = path.join(dataDir, "pgdata");
  }
  const pglite = await PGlite.create(location);
  const db = drizzle({ client: pglite, schema });
  await migrate(db, { migrationsFolder });
  let stopSharing = async () => {};
  if (shareAt) stopSharing = await shareEmbedded(pglite, shareAt);
  return {
    db: db as unknown as Database,
    kind: "embedded",
    pglite,
    close: async () => {
      await stopSharing();
      await pglite.close();
    },
  };
}

async function shareEmbedded(pglite: import("@electric-sql/pglite").PGlite, socketPath: string) {
  const { rmSync, chmodSync } = await import("node:fs");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  rmSync(socketPath, { force: true }); // a stale socket from a process that died
  const server = new PGLiteSocketServer({ db: pglite, path: socketPath, maxConnections: 4 });
  await server.start();
  // Only this machine's user may reach the database: the socket has no password.
  chmodSync(socketPath, 0o600);
  return async () => {
    await server.stop();
    rmSync(socketPath, { force: true });
  };
}

async function connectShared(socketPath: string): Promise<DatabaseHandle | undefined> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const sql = postgres({ path: socketPath, max: 1, prepare: false, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
  } catch {
    await sql.end({ timeout: 1 }).catch(() => {});
    return undefined;
  }
  const db = drizzle({ client: sql, schema });
  return { db: db as unknown as Database, kind: "shared", close: () => sql.end({ timeout: 5 }) };
}

type Global = typeof globalThis & { __preheatDatabase?: Promise<DatabaseHandle> };

/**
 * The process-wide database. Opened once per process (never twice on one PGlite directory);
 * the server shares it on a local socket so the CLI can use it while the server runs.
 */
export function getDatabaseHandle(): Promise<DatabaseHandle> {
  const g = globalThis as Global;
  g.__preheatDatabase ??= openDatabase({ share: true }).catch((error) => {
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
