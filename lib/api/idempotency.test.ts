import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { idempotencyKeys } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { REPLAYED_HEADER, runOnce } from "./idempotency";
import { operations } from "./operations";
import { json } from "./responses";

let handle: DatabaseHandle;
let accountId: number;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
  accountId = (await findOrCreateUser(handle.db, "idempotency@example.com")).user.accountId;
});
afterAll(() => handle.close());

const SHOWN_ONLY_HERE = /shown only in this answer/;

describe("fields shown once", () => {
  it("are declared by each operation whose answer documents one, as optional fields of that answer", () => {
    for (const op of operations) {
      const shape = op.response instanceof z.ZodObject ? (op.response.shape as Record<string, z.ZodType>) : {};
      const documented = Object.keys(shape).filter((field) => SHOWN_ONLY_HERE.test(shape[field]!.meta()?.description ?? ""));
      expect(op.shownOnce ?? [], op.operationId).toEqual(documented);
      for (const field of documented) expect(shape[field]!.safeParse(undefined).success, `${op.operationId}.${field}`).toBe(true);
      if (documented.length) expect(op.idempotent, op.operationId).toBe(true);
    }
  });

  for (const op of operations.filter((op) => op.shownOnce)) {
    it(`${op.operationId}: are never stored, and a replay answers without them`, async () => {
      const key = `shown-once-${op.operationId}`;
      const secret = `secret-${crypto.randomUUID()}`;
      const first = { id: 7, name: "ci", ...Object.fromEntries(op.shownOnce!.map((field) => [field, `${field}:${secret}`])) };
      const create = async () => json(first, 201, { location: "/v1/things/7" });
      const holder = { accountId, holder: "key:1" };
      const answer = await runOnce(handle.db, holder, key, "fingerprint", create, { shownOnce: op.shownOnce });
      expect(answer.status).toBe(201);
      expect(await answer.json()).toEqual(first);

      const [row] = await handle.db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
      expect(JSON.stringify(row)).not.toContain(secret);

      const replay = await runOnce(handle.db, holder, key, "fingerprint", () => Promise.reject(new Error("created twice")), { shownOnce: op.shownOnce });
      expect(replay.status).toBe(201);
      expect(replay.headers.get(REPLAYED_HEADER)).toBe("true");
      expect(replay.headers.get("location")).toBe("/v1/things/7");
      expect(await replay.json()).toEqual({ id: 7, name: "ci" });
    });
  }
});
