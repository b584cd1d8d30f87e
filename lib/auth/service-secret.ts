import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { serviceSecrets } from "@/drizzle/schema";
import type { Database } from "@/lib/db";

/**
 * The secret named `name`: NEXTAUTH_SECRET-style configuration wins; otherwise one is made on first
 * use and kept in the database, so every server on that database signs and reads the same sessions
 * and a restart does not sign everybody out.
 */
export async function serviceSecret(db: Database, name: string, configured?: string): Promise<string> {
  if (configured) return configured;
  await db
    .insert(serviceSecrets)
    .values({ name, value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing({ target: serviceSecrets.name });
  const [row] = await db.select().from(serviceSecrets).where(eq(serviceSecrets.name, name));
  return row!.value;
}
