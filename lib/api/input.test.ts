import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RequestError } from "./errors";
import { MAX_JSON_DEPTH, nestsTooDeep, parseBody, parseParams } from "./input";

const nested = (depth: number, open = "[", close = "]") => `{"a":${open.repeat(depth - 1)}${close.repeat(depth - 1)}}`;

describe("nestsTooDeep", () => {
  it("counts arrays and objects, up to the limit and not past it", () => {
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsTooDeep(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${"}".repeat(MAX_JSON_DEPTH + 1)}`)).toBe(true);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    expect(nestsTooDeep(JSON.stringify({ name: "[".repeat(1000) }))).toBe(false);
    expect(nestsTooDeep(JSON.stringify({ name: `\\"${"{".repeat(1000)}` }))).toBe(false);
    expect(nestsTooDeep(`{"a":"\\\\",${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}}`)).toBe(true);
  });
});

describe("parseBody", () => {
  const schema = z.object({ name: z.string(), tags: z.array(z.unknown()).optional() });

  it("refuses a body nested 50,000 deep with a 422 naming the limit, before anything recurses", () => {
    const text = `{"tags":${"[".repeat(50_000)}${"]".repeat(50_000)},"name":"\\u0000"}`;
    const refusal = (() => {
      try {
        parseBody(text, schema);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(RequestError);
    expect(refusal).toMatchObject({ status: 422, message: `Request body: must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep.` });
  });

  it("still takes a body nested as deep as the limit", () => {
    const tags = JSON.parse(`${"[".repeat(MAX_JSON_DEPTH - 1)}${"]".repeat(MAX_JSON_DEPTH - 1)}`);
    expect(parseBody(JSON.stringify({ name: "x", tags }), schema)).toEqual({ name: "x", tags });
  });
});

describe("parseParams", () => {
  it("refuses NUL in a path value (PostgreSQL text cannot hold it) with a 422 naming the field", () => {
    expect(() => parseParams({ token: "phd_\0" }, z.object({ token: z.string() }))).toThrow(expect.objectContaining({ status: 422, message: "token: must not contain NUL characters (\\u0000)" }));
  });
});
