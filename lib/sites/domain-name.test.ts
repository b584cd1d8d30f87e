import { describe, expect, it } from "vitest";
import { InvalidError } from "@/lib/core/errors";
import { hostOfAddress, isOnDomain, normaliseDomain, parseSiteUrl } from "./domain-name";

describe("normaliseDomain", () => {
  it.each([
    ["example.com", "example.com"],
    ["https://Example.COM/", "example.com"],
    ["HTTP://www.example.com", "www.example.com"],
    ["  shop.example.co.uk/ ", "shop.example.co.uk"],
    ["example.com:8443", "example.com:8443"],
    ["example.com:80", "example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
  ])("%s → %s", (input, expected) => {
    expect(normaliseDomain(input)).toBe(expected);
  });

  it.each(["example.com/a", "example.com?q", "example.com#x", "u:p@example.com", "exa_mple.com", "localhost", "10.0.0.1", "[::1]", "example.com:0", "example.com:", "a..b.com", ""])(
    "refuses %j",
    (input) => {
      expect(() => normaliseDomain(input)).toThrow(InvalidError);
    },
  );
});

describe("a refused domain", () => {
  it("names the field in its detail, the message keeping the API's wording", () => {
    const refusal = (() => {
      try {
        normaliseDomain("https://www.shop.com/products");
      } catch (error) {
        return error as InvalidError;
      }
    })();
    expect(refusal?.message).toBe('domain: "https://www.shop.com/products" must be a bare host name such as example.com, without a path, query, credentials or spaces.');
    expect(refusal?.details).toEqual([{ field: "domain", message: '"https://www.shop.com/products" must be a bare host name such as example.com, without a path, query, credentials or spaces' }]);
  });
});

describe("hostOfAddress", () => {
  it.each([
    ["https://www.shop.com/products", "www.shop.com"],
    [" HTTP://Shop.COM:8443/a?b=1#c ", "shop.com:8443"],
    ["https://user:secret@shop.com/", "shop.com"],
    ["https://bücher.de/x", "xn--bcher-kva.de"],
  ])("%j → %s", (input, host) => {
    expect(hostOfAddress(input)).toBe(host);
    // What the dashboard keeps is a domain the API takes as it is.
    expect(normaliseDomain(host)).toBe(host);
  });

  it.each(["www.shop.com", "www.shop.com/products", "ftp://shop.com/", "https://", ""])("finds no address in %j", (input) => {
    expect(hostOfAddress(input)).toBeNull();
  });
});

describe("isOnDomain", () => {
  it("accepts the domain and its www. variant, in both directions", () => {
    expect(isOnDomain(new URL("https://example.com/a"), "example.com")).toBe(true);
    expect(isOnDomain(new URL("https://www.example.com/a"), "example.com")).toBe(true);
    expect(isOnDomain(new URL("http://example.com/a"), "www.example.com")).toBe(true);
  });

  it("refuses subdomains, other domains, other ports and other schemes", () => {
    expect(isOnDomain(new URL("https://shop.example.com/"), "example.com")).toBe(false);
    expect(isOnDomain(new URL("https://example.org/"), "example.com")).toBe(false);
    expect(isOnDomain(new URL("https://example.com:8443/"), "example.com")).toBe(false);
    expect(isOnDomain(new URL("ftp://example.com/"), "example.com")).toBe(false);
  });
});

describe("parseSiteUrl", () => {
  it("drops the fragment and explains refusals", () => {
    const ok = parseSiteUrl("https://example.com/a#top", "example.com");
    expect("url" in ok && ok.url.toString()).toBe("https://example.com/a");
    expect(parseSiteUrl("/relative", "example.com")).toEqual({ problem: '"/relative" is not an absolute URL' });
    expect(parseSiteUrl("https://other.com/", "example.com")).toEqual({ problem: "https://other.com/ is not on the site's domain example.com" });
  });
});
