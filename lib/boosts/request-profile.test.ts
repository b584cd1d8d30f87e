import { describe, expect, it } from "vitest";
import { fieldErrors, summarise } from "@/lib/core/field-errors";
import { requestProfileSchema, variationsSchema } from "@/lib/core/variations";

const problems = (result: { success: boolean; error?: Parameters<typeof fieldErrors>[0] }) => (result.success ? "" : summarise(fieldErrors(result.error!, "request_profile")));

describe("a request profile's headers", () => {
  it("keeps valid headers, names lower-cased", () => {
    expect(requestProfileSchema.parse({ headers: { "X-Preview": "1", Accept: "text/html" } }).headers).toEqual({ "x-preview": "1", accept: "text/html" });
  });

  it.each([
    ["Cookie", "use `cookies` (or `variations.cookie_sets`) instead"],
    ["authorization", "use `basic_auth` instead"],
    ["Host", "the URL's host is sent"],
    ["Content-Length", "the connection sets it"],
    ["Connection", "the connection sets it"],
    ["Transfer-Encoding", "the connection sets it"],
    ["TE", "the connection sets it"],
    ["Upgrade", "the connection sets it"],
    ["Proxy-Authorization", "it is meant for a proxy, not the site"],
    ["User-Agent", "use `custom_user_agents` (or `variations.user_agents`) instead"],
    ["Accept-Encoding", "use `variations.encodings` instead"],
  ])("refuses %s, naming it and the field to use instead", (name, why) => {
    expect(problems(requestProfileSchema.safeParse({ headers: { [name]: "x" } }))).toBe(`request_profile.headers.${name}: may not be set here: ${why}`);
  });

  it("refuses names that are no token, values over 1 KiB or on two lines, twice the same name, and more than 20", () => {
    expect(problems(requestProfileSchema.safeParse({ headers: { "X Bad": "1" } }))).toMatch(/headers\.X Bad: is not a valid header name/);
    expect(problems(requestProfileSchema.safeParse({ headers: { "x-big": "a".repeat(1025) } }))).toBe("request_profile.headers.x-big: must be at most 1024 bytes");
    expect(requestProfileSchema.safeParse({ headers: { "x-big": "a".repeat(1024) } }).success).toBe(true);
    expect(problems(requestProfileSchema.safeParse({ headers: { "x-split": "a\r\nx-injected: 1" } }))).toBe("request_profile.headers.x-split: must be printable ASCII on one line");
    expect(problems(requestProfileSchema.safeParse({ headers: { "X-A": "1", "x-a": "2" } }))).toBe("request_profile.headers.x-a: is given twice (header names are case-insensitive)");
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-h${i}`, "1"]));
    expect(problems(requestProfileSchema.safeParse({ headers: many }))).toBe("request_profile.headers: must list at most 20 headers");
  });
});

describe("cookies, custom user agents and Basic auth", () => {
  it("refuses a cookie value that would spill into the next cookie", () => {
    expect(problems(requestProfileSchema.safeParse({ cookies: { currency: "USD; admin=1" } }))).toMatch(/^request_profile\.cookies\.currency: must be made of cookie characters/);
    expect(problems(requestProfileSchema.safeParse({ cookies: { "bad name": "1" } }))).toMatch(/cookies\.bad name: is not a valid cookie name/);
  });

  it("refuses a class name as a custom agent, and a username with a colon", () => {
    expect(problems(requestProfileSchema.safeParse({ custom_user_agents: ["desktop"] }))).toMatch(/custom_user_agents\[0\]: is the name of a user-agent class/);
    expect(requestProfileSchema.parse({ custom_user_agents: ["A/1", "A/1"] }).custom_user_agents).toEqual(["A/1"]);
    expect(problems(requestProfileSchema.safeParse({ basic_auth: { username: "a:b", password: "x" } }))).toMatch(/basic_auth\.username: must not hold ':'/);
  });
});

describe("cookie sets and encodings", () => {
  it("takes up to 10 named sets with distinct names, and the four encodings", () => {
    const sets = Array.from({ length: 11 }, (_, i) => ({ name: `S${i}`, cookies: { currency: `C${i}` } }));
    expect(variationsSchema.safeParse({ cookie_sets: sets.slice(0, 10), encodings: ["zstd", "br", "gzip", "identity", "br"] }).data?.encodings).toEqual(["zstd", "br", "gzip", "identity"]);
    expect(summarise(fieldErrors(variationsSchema.safeParse({ cookie_sets: sets }).error!, "variations"))).toBe("variations.cookie_sets: must list at most 10 cookie sets");
    expect(summarise(fieldErrors(variationsSchema.safeParse({ cookie_sets: [sets[0], sets[0]] }).error!, "variations"))).toBe('variations.cookie_sets[1].name: is used twice: "S0"');
    expect(variationsSchema.safeParse({ encodings: ["deflate"] }).success).toBe(false);
  });
});
