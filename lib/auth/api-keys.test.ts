import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { authenticateApiKey, createApiKey, revokeApiKey } from "./api-keys";

let handle: DatabaseHandle;
let accountId: number;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
  accountId = (await findOrCreateUser(handle.db, "keys@example.com")).user.accountId;
});
afterAll(() => handle.close());

describe("authenticateApiKey on the embedded database (keys remembered by this process)", () => {
  it("refuses a key at once once it is revoked, though it was just used", async () => {
    const { key, apiKey } = await createApiKey(handle.db, { accountId, name: "ci", scopes: ["sites:read"] });
    expect(await authenticateApiKey(handle.db, key)).toMatchObject({ keyId: apiKey.id, accountId, scopes: ["sites:read"] });
    expect(await authenticateApiKey(handle.db, key)).toMatchObject({ keyId: apiKey.id });
    await revokeApiKey(handle.db, apiKey.id, accountId);
    expect(await authenticateApiKey(handle.db, key)).toBeUndefined();
  });

  it("a lookup racing the revocation does not remember the key it read before", async () => {
    const { key, apiKey } = await createApiKey(handle.db, { accountId, name: "race", scopes: ["sites:read"] });
    const [looked] = await Promise.all([authenticateApiKey(handle.db, key), revokeApiKey(handle.db, apiKey.id, accountId)]);
    expect(looked === undefined || looked.keyId === apiKey.id).toBe(true);
    expect(await authenticateApiKey(handle.db, key)).toBeUndefined();
  });

  it("refuses a remembered key once its expiry passes, and records its use once a minute", async () => {
    const { key, apiKey } = await createApiKey(handle.db, { accountId, name: "short", scopes: ["sites:read"], expiresAt: new Date(Date.now() + 1_000) });
    expect(await authenticateApiKey(handle.db, key)).toBeDefined();
    const [row] = await handle.db.select({ lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row!.lastUsedAt).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await authenticateApiKey(handle.db, key)).toBeUndefined();
  });
});
