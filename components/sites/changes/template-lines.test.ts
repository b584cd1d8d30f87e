import { describe, expect, it } from "vitest";
import { linesToTemplates, templatesToLines } from "./template-lines";

describe("template lines", () => {
  it("turn templates into lines and back, keys repeated per template", () => {
    const templates = { products: ["/products/{handle}", "/shop/{handle}"], "*": ["/{slug.current}"] };
    const text = templatesToLines(templates);
    expect(text).toBe("products: /products/{handle}\nproducts: /shop/{handle}\n*: /{slug.current}");
    expect(linesToTemplates(`${text}\n\n`)).toEqual({ templates, problem: null });
  });

  it("keep a colon inside the path and say which line has no key", () => {
    expect(linesToTemplates("post: /blog/{fields.slug.en-US}:draft").templates).toEqual({ post: ["/blog/{fields.slug.en-US}:draft"] });
    expect(linesToTemplates("post: /a\n/b").problem).toMatch(/^Line 2:/);
  });
});
