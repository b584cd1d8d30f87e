import { describe, expect, it } from "vitest";
import { countCallsByRegion, expandCalls } from "@/lib/runs/calls";
import { contentTypeOf, extensionOf, keepsUrl } from "./url-filters";

const u = (path: string) => new URL(`https://shop.test${path}`);

describe("URL filters", () => {
  it("reads the extension of the last path segment, ignoring the query string and case", () => {
    expect(extensionOf(u("/img/Photo.JPG?w=200"))).toBe("jpg");
    expect(extensionOf(u("/v1.2/page"))).toBe("");
    expect(extensionOf(u("/.well-known"))).toBe("");
  });

  it("classifies content types, a path without extension being a page", () => {
    expect(contentTypeOf(u("/shoes/"))).toBe("html");
    expect(contentTypeOf(u("/app.js"))).toBe("js");
    expect(contentTypeOf(u("/a.woff2"))).toBe("font");
    expect(contentTypeOf(u("/a.xyz"))).toBe("other");
  });

  it("keeps URLs under url_root, without excluded extensions, of the wanted content types", () => {
    const filters = { urlRoot: "/shop/", excludeExt: ["jpg", "css"], contentTypes: null };
    expect(keepsUrl(u("/shop/a"), filters)).toBe(true);
    expect(keepsUrl(u("/blog/a"), filters)).toBe(false);
    expect(keepsUrl(u("/shop/a.JPG?x=1"), filters)).toBe(false);
    const pages = { urlRoot: "/", excludeExt: null, contentTypes: ["html"] };
    expect(keepsUrl(u("/a.pdf"), pages)).toBe(false);
    expect(keepsUrl(u("/a.html"), pages)).toBe(true);
  });
});

describe("expandCalls", () => {
  const urls = ["https://shop.test/a", "https://shop.test/b", "https://shop.test/c"];

  it("makes URL × user agent × language × region calls", () => {
    const { byRegion, total } = expandCalls(urls, { regions: ["fr", "us"], variations: { user_agents: ["mobile", "bot"], languages: ["fr-FR", "en-US"] } }, null);
    expect(total).toBe(3 * 2 * 2 * 2);
    expect(byRegion.get("fr")).toHaveLength(12);
    expect(byRegion.get("fr")![0]).toEqual({ url: urls[0], user_agent: "mobile", language: "fr-FR" });
  });

  it("without variations makes one desktop call with no language per region", () => {
    const { byRegion, total } = expandCalls(urls, { regions: ["fr"], variations: null }, null);
    expect(total).toBe(3);
    expect(byRegion.get("fr")![0]).toEqual({ url: urls[0], user_agent: "desktop", language: null });
  });

  it("stops at the call limit, URL by URL", () => {
    const { byRegion, total } = expandCalls(urls, { regions: ["fr", "de"], variations: null }, 3);
    expect(total).toBe(3);
    expect(byRegion.get("fr")!.map((c) => c.url)).toEqual([urls[0], urls[1]]);
    expect(byRegion.get("de")!.map((c) => c.url)).toEqual([urls[0]]);
  });
});

describe("countCallsByRegion", () => {
  it.each([
    [5, ["fr", "de", "us"], { user_agents: ["mobile", "desktop"], languages: ["fr-FR"] }, null],
    [5, ["fr", "de", "us"], { user_agents: ["mobile", "desktop"], languages: ["fr-FR", "en"] }, 17],
    [3, ["fr", "de"], null, 3],
    [4, ["fr"], null, 100],
    [0, ["fr", "de"], null, null],
  ] as const)("counts what expandCalls generates (%i URLs, regions %j, limit %j)", (urlCount, regions, variations, limit) => {
    const urls = Array.from({ length: urlCount }, (_, i) => `https://shop.test/${i}`);
    const plan = { regions, variations };
    const { byRegion } = expandCalls(urls, plan, limit);
    expect(countCallsByRegion(urlCount, plan, limit)).toEqual(Object.fromEntries([...byRegion].map(([region, calls]) => [region, calls.length])));
  });
});
