import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { verify } from "web-bot-auth";
import { verifierFromJWK } from "web-bot-auth/crypto";
import { botSigningKeys } from "@/drizzle/schema";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { identifyingHeaders, KEY_DIRECTORY_PATH, VERIFICATION_HEADER } from "./identify";
import { botSigner, forgetBotSigner, keyDirectory, listedSigningKeys, RETIRED_KEY_LISTED_DAYS, rotateSigningKeys } from "./signing-keys";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
});
afterAll(() => handle.close());

function signaturesOn() {
  vi.stubEnv("PREHEAT_BOT_SIGNATURES", "true");
  vi.stubEnv("PREHEAT_SECRETS_KEY", randomBytes(32).toString("hex"));
  vi.stubEnv("PREHEAT_BASE_URL", "https://preheat.example");
}
afterEach(async () => {
  vi.unstubAllEnvs();
  forgetBotSigner();
  await handle.db.delete(botSigningKeys);
});

type Jwk = JsonWebKey & { kid: string };
async function directory(): Promise<{ keys: Jwk[]; headers: Record<string, string> }> {
  const { body, headers } = await keyDirectory(handle.db);
  return { keys: (JSON.parse(body) as { keys: Jwk[] }).keys, headers };
}

/** Verifies a signed call as a Web Bot Auth verifier does: the key named by keyid, fetched from the directory. */
async function verifyCall(url: string, headers: Record<string, string>, keys: Jwk[]) {
  return verify({ method: "GET", url, headers }, async (data, signature, params) => {
    const key = keys.find((k) => k.kid === params.keyid);
    if (!key) throw new Error(`keyid ${params.keyid} is not in the directory`);
    return (await verifierFromJWK(key))(data, signature, params);
  });
}

describe("identifyingHeaders", () => {
  it("sends the site's secret in Preheat-Verification, and nothing else while signatures are off", async () => {
    expect(await identifyingHeaders("https://shop.test/", { verification: "s3cret", signer: await botSigner(handle.db) })).toEqual({ [VERIFICATION_HEADER]: "s3cret" });
    expect(await identifyingHeaders("https://shop.test/", { verification: null, signer: null })).toEqual({});
  });

  it("signs @authority and signature-agent with the active key, which the directory lists", async () => {
    signaturesOn();
    const signer = await botSigner(handle.db);
    const url = "https://shop.test:8443/p?x=1";
    const headers = await identifyingHeaders(url, { verification: "s3cret", signer });
    expect(headers["signature-agent"]).toBe(`"https://preheat.example${KEY_DIRECTORY_PATH}"`);
    expect(headers["signature-input"]).toMatch(/^sig1=\("@authority" "signature-agent"\);created=\d+;keyid="[\w-]{43}";alg="ed25519";expires=\d+;nonce="[^"]+";tag="web-bot-auth"$/);
    const { keys } = await directory();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toEqual({ kty: "OKP", crv: "Ed25519", x: expect.any(String), kid: signer!.keyid });
    await expect(verifyCall(url, headers, keys)).resolves.toBeUndefined();
    // Another host, or another agent, does not verify.
    await expect(verifyCall("https://other.test/p?x=1", headers, keys)).rejects.toThrow();
    await expect(verifyCall(url, { ...headers, "signature-agent": '"https://impostor.example/"' }, keys)).rejects.toThrow();
  });

  it("keeps a rotated key listed for the grace period, so that signatures made before the rotation still verify", async () => {
    signaturesOn();
    const before = await botSigner(handle.db);
    const url = "https://shop.test/";
    const signedBefore = await identifyingHeaders(url, { verification: null, signer: before });
    const { active, retired } = await rotateSigningKeys(handle.db);
    expect(retired.map((k) => k.keyId)).toEqual([before!.keyid]);
    const after = await botSigner(handle.db);
    expect(after!.keyid).toBe(active.keyId);
    const { keys } = await directory();
    expect(keys.map((k) => k.kid)).toEqual([active.keyId, before!.keyid]);
    await expect(verifyCall(url, signedBefore, keys)).resolves.toBeUndefined();
    await expect(verifyCall(url, await identifyingHeaders(url, { verification: null, signer: after }), keys)).resolves.toBeUndefined();
    // Past the grace period the retired key leaves the directory.
    const later = new Date(Date.now() + (RETIRED_KEY_LISTED_DAYS + 1) * 86_400_000);
    expect((await listedSigningKeys(handle.db, later)).map((k) => k.keyId)).toEqual([active.keyId]);
  });

  it("serves the directory as its media type, signed with each listed key over the authority it is asked at", async () => {
    signaturesOn();
    await botSigner(handle.db);
    await rotateSigningKeys(handle.db);
    const { keys, headers } = await directory();
    expect(headers["content-type"]).toBe("application/http-message-signatures-directory+json");
    expect(headers["signature-input"]).toMatch(/^binding0=\("@authority";req\);.*tag="http-message-signatures-directory", binding1=/);
    expect(headers.signature!.split(", ")).toHaveLength(keys.length);
  });

  it("keeps private keys sealed: the stored row holds no private part in clear, and another PREHEAT_SECRETS_KEY cannot sign", async () => {
    signaturesOn();
    await botSigner(handle.db);
    const [row] = await handle.db.select().from(botSigningKeys);
    expect(row!.privateKeyEncrypted).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(row!.privateKeyEncrypted).not.toContain('"d"');
    vi.stubEnv("PREHEAT_SECRETS_KEY", randomBytes(32).toString("base64"));
    forgetBotSigner();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await botSigner(handle.db)).toBeNull();
    expect(errors).toHaveBeenCalledOnce();
    errors.mockRestore();
  });

  it("refuses to make keys without PREHEAT_SECRETS_KEY: calls go unsigned, the reason logged once", async () => {
    vi.stubEnv("PREHEAT_BOT_SIGNATURES", "true");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await botSigner(handle.db)).toBeNull();
    forgetBotSigner();
    expect(await botSigner(handle.db)).toBeNull();
    expect(errors).toHaveBeenCalledOnce();
    expect(String(errors.mock.calls[0]![0])).toMatch(/PREHEAT_SECRETS_KEY/);
    errors.mockRestore();
    expect(await handle.db.select().from(botSigningKeys)).toEqual([]);
  });
});
