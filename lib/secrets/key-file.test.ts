import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { embeddedSecretsKey } from "./key-file";

// An embedded install's own secrets key (issue 60, item 3): made once, owner-only, the same on every start.

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "preheat-key-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("embeddedSecretsKey", () => {
  it("makes 32 random bytes on the first start, readable by the owner only, and reads the same on the next", () => {
    const dir = dataDir();
    const first = embeddedSecretsKey(dir);
    expect(first.created).toBe(true);
    expect(first.value).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    const again = embeddedSecretsKey(dir);
    expect(again).toEqual({ value: first.value, file: first.file, created: false });
    expect(embeddedSecretsKey(dataDir()).value).not.toBe(first.value);
  });

  it("refuses a file that holds no key, saying how to mend it", () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, "secrets.key"), "not a key\n");
    expect(() => embeddedSecretsKey(dir)).toThrow(/does not hold a secrets key .* restore it from a backup of the data directory, or set PREHEAT_SECRETS_KEY/);
  });
});
