import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { setting } from "@/lib/config";

/** Unix socket paths are limited to ~107 bytes: a long data directory gets a socket in the temp dir. */
const MAX_SOCKET_PATH = 100;

export function dataDirectory(): string {
  return path.resolve(/*turbopackIgnore: true*/ setting("PREHEAT_DATA_DIR"));
}

/** Where a running server takes operator commands (the CLI) for the embedded database it owns. */
export function controlSocketPath(dataDir = dataDirectory()): string {
  const inside = path.join(dataDir, "preheat.sock");
  if (inside.length <= MAX_SOCKET_PATH) return inside;
  const digest = createHash("sha256").update(dataDir).digest("hex").slice(0, 16);
  return path.join(tmpdir(), `preheat-${digest}.sock`);
}
