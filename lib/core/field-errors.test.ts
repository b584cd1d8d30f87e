import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldProblems, fieldSentence, pathKeys } from "./field-errors";

describe("pathKeys", () => {
  it("undoes the API's field paths", () => {
    expect(pathKeys("variations.languages[10]")).toEqual(["variations", "languages", 10]);
    expect(pathKeys("urls[0]")).toEqual(["urls", 0]);
    expect(pathKeys("domain")).toEqual(["domain"]);
  });
});

describe("fieldSentence", () => {
  it("makes the field's own predicate a sentence", () => {
    expect(fieldSentence("", [], "must not be empty")).toBe("Must not be empty.");
    expect(fieldSentence("x", [], "Not right.")).toBe("Not right.");
    expect(fieldSentence("https://a.test/", [], "https://a.test/ is not on the site's domain b.test")).toBe("https://a.test/ is not on the site's domain b.test.");
  });

  it("names a list's item by its value, once", () => {
    expect(fieldSentence(["fr-FR", "xx"], [1], "must be a language tag of the form ll-RR, e.g. fr-FR")).toBe("“xx” must be a language tag of the form ll-RR, e.g. fr-FR.");
    expect(fieldSentence(["https://a.test/"], [0], "https://a.test/ is not on the site's domain b.test")).toBe("https://a.test/ is not on the site's domain b.test.");
    expect(fieldSentence(["/x"], [0], '"/x" is not an absolute URL')).toBe('"/x" is not an absolute URL.');
  });

  it("names what lies deeper by its path, named items by their names", () => {
    expect(fieldSentence({ Cookie: "a" }, ["Cookie"], "may not be set here")).toBe("Cookie: may not be set here.");
    expect(fieldSentence([{ name: "USD" }], [0, "name"], "is used twice")).toBe("USD.name: is used twice.");
  });
});

describe("fieldProblems", () => {
  const schema = z.object({ name: z.string().min(1), variations: z.object({ languages: z.array(z.string().regex(/^..-..$/, "must be a tag")) }) });

  it("puts each issue under the deepest field on screen, the first of each kept", () => {
    const body = { name: "", variations: { languages: ["fr-FR", "x", "y"] } };
    const parsed = schema.safeParse(body);
    expect(fieldProblems(parsed.error!, body, ["name", "variations", "variations.languages"])).toEqual({ name: "Must not be empty.", "variations.languages": "“x” must be a tag." });
  });

  it("keeps an issue under no field by its own path", () => {
    const body = { name: "a", variations: { languages: ["x"] } };
    const parsed = schema.safeParse(body);
    expect(fieldProblems(parsed.error!, body, ["name"])).toEqual({ "variations.languages[0]": "Must be a tag." });
  });
});
