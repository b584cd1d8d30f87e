import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";
import { provideSetting, setting } from "@/lib/config";
import { parseSecretsKey } from "@/lib/config/parsers";

/** Where an embedded install keeps its own secrets key, beside its database. */
const SECRETS_KEY_FILE = "secrets.key";

/**
 * An embedded install's secrets key: `<dataDir>/secrets.key`, made on the first start without
 * PREHEAT_SECRETS_KEY (32 random bytes in hexadecimal, readable by its owner only) and read on every
 * start after, so that two-factor sign-in, Basic auth passwords and every sealed secret work out of
 * the box. The file goes with the database it unlocks: a backup of the data directory holds both.
 */
export function embeddedSecretsKey(dataDir: string): { value: string; file: string; created: boolean } {
  const file = path.join(dataDir, SECRETS_KEY_FILE);
  let created = false;
  try {
    // "wx": made only if absent, so that two starts racing never make two keys.
    const fd = openSync(file, "wx", 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString("hex")}\n`);
    } finally {
      closeSync(fd);
    }
    created = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const value = readFileSync(file, "utf8").trim();
  try {
    parseSecretsKey(value);
  } catch {
    throw new Error(`${file} does not hold a secrets key (64 hexadecimal digits): restore it from a backup of the data directory, or set PREHEAT_SECRETS_KEY.`);
  }
  return { value, file, created };
}

/**
 * Gives this process its secrets key at start: PREHEAT_SECRETS_KEY when set; on the embedded database,
 * the install's own key file. A deployment on a PostgreSQL server runs several processes that must
 * share one key: it must be given, and the start says what is refused until it is.
 */
export function provideSecretsKey(dataDir: string): void {
  if (setting("PREHEAT_SECRETS_KEY")) return;
  if (setting("DATABASE_URL")) {
    console.warn(
      "[preheat] PREHEAT_SECRETS_KEY is not set: two-factor sign-in, request profiles' Basic auth passwords, change receivers' secrets, traffic sources' keys and the bot's signing keys cannot be stored (422) until it is. Give every server and worker the same one: openssl rand -hex 32.",
    );
    return;
  }
  const key = embeddedSecretsKey(dataDir);
  provideSetting("PREHEAT_SECRETS_KEY", key.value);
  console.log(`[preheat] secrets key: ${key.file}${key.created ? " (made now, readable by this user only)" : ""}; back it up with the data directory`);
}
