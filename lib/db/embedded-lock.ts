import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

export class DatabaseLockedError extends Error {
  constructor(
    readonly pid: number,
    dataDir: string,
  ) {
    super(`The embedded database in ${dataDir} is in use by process ${pid}. Stop it, or set PREHEAT_DATA_DIR to another directory.`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite must never be opened by two processes at once: the first takes `preheat.lock` (its pid
 * inside); a lock whose process is gone is stale and taken over.
 */
export function lockEmbeddedDatabase(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "preheat.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        rmSync(lockPath, { force: true });
      };
      // Next's own signal handlers may exit before ours have closed the database: still free the lock.
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(lockPath, "utf8").trim());
      if (pid && pid !== process.pid && alive(pid)) throw new DatabaseLockedError(pid, dataDir);
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}.`);
}
