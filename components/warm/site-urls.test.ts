import { describe, expect, it } from "vitest";
import { extractUrls, siteUrlSorter } from "./site-urls";

describe("extractUrls", () => {
  it("finds every http(s) URL once, in lines or CSV cells", () => {
    expect(extractUrls('https://a.test/1\nnot a url\nhttp://a.test/2,https://a.test/1;"https://b.test/"')).toEqual(["https://a.test/1", "http://a.test/2", "https://b.test/"]);
  });
});

describe("siteUrlSorter", () => {
  it("keeps the site's URLs once across sources, in order, and counts the others with the first reason", () => {
    const sort = siteUrlSorter("shop.test");
    const sorted = sort([
      ["https://www.shop.test/1", "https://elsewhere.test/x"],
      ["https://shop.test/2", "https://www.shop.test/1", "https://user:pw@shop.test/3"],
    ]);
    expect(sorted.urls).toEqual(["https://www.shop.test/1", "https://shop.test/2"]);
    expect(sorted.refused).toEqual({ count: 2, first: "https://elsewhere.test/x is not on the site's domain shop.test" });
  });

  it("sorts 6,000 URLs again in a few milliseconds once it has seen them, as a keystroke after a paste does", () => {
    const sort = siteUrlSorter("shop.test");
    const pasted = Array.from({ length: 6000 }, (_, i) => (i < 5000 ? `https://shop.test/products/${i}` : `https://elsewhere.test/${i}`));
    expect(sort([pasted]).urls).toHaveLength(5000);
    const started = performance.now();
    const again = sort([["https://shop.test/one-more"], pasted]);
    const took = performance.now() - started;
    expect(again.urls).toHaveLength(5001);
    expect(again.refused.count).toBe(1000);
    expect(took).toBeLessThan(50);
  });
});
