import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, setting } from "@/lib/config";
import { decryptSecret, encryptSecret, SecretsError, secretsKeyConfigured } from ".";

const hexKey = randomBytes(32).toString("hex");

afterEach(() => {
  delete process.env.PREHEAT_SECRETS_KEY;
});

describe("secrets at rest", () => {
  it("seals with a fresh IV each time and opens what it sealed, under a hex or a base64 key", () => {
    for (const key of [hexKey, randomBytes(32).toString("base64")]) {
      process.env.PREHEAT_SECRETS_KEY = key;
      const a = encryptSecret("s3cret pässword");
      const b = encryptSecret("s3cret pässword");
      expect(a).not.toBe(b);
      expect(a).not.toContain("s3cret");
      expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(decryptSecret(a)).toBe("s3cret pässword");
      expect(decryptSecret(encryptSecret(""))).toBe("");
    }
  });

  it("refuses to open an altered value or one sealed under another key", () => {
    process.env.PREHEAT_SECRETS_KEY = hexKey;
    const sealed = encryptSecret("password");
    const [v, iv, tag, data] = sealed.split(".");
    const flipped = Buffer.from(data!, "base64url");
    flipped[0]! ^= 1;
    expect(() => decryptSecret([v, iv, tag, flipped.toString("base64url")].join("."))).toThrow(SecretsError);
    expect(() => decryptSecret("password")).toThrow(SecretsError);
    process.env.PREHEAT_SECRETS_KEY = randomBytes(32).toString("hex");
    expect(() => decryptSecret(sealed)).toThrow(/current PREHEAT_SECRETS_KEY/);
  });

  it("says whether a key is set, and refuses to seal without one", () => {
    expect(secretsKeyConfigured()).toBe(false);
    expect(() => encryptSecret("password")).toThrow(/no PREHEAT_SECRETS_KEY/);
    process.env.PREHEAT_SECRETS_KEY = hexKey;
    expect(secretsKeyConfigured()).toBe(true);
  });

  it("takes 32 bytes only, and never prints the key in its error", () => {
    for (const bad of ["abc", randomBytes(16).toString("hex"), randomBytes(31).toString("base64"), `${hexKey}00`]) {
      process.env.PREHEAT_SECRETS_KEY = bad;
      expect(() => setting("PREHEAT_SECRETS_KEY")).toThrow(ConfigError);
      expect(() => setting("PREHEAT_SECRETS_KEY")).toThrow(/value hidden/);
    }
  });
});
