import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readXmlUrls } from "@/lib/sources/xml-urls";
import { SourceFormatError } from "@/lib/sources/errors";

const read = (xml: string, chunk = 7) => {
  // Small chunks: values and tags split across writes must still be read whole.
  const pieces: Buffer[] = [];
  const bytes = Buffer.from(xml);
  for (let i = 0; i < bytes.length; i += chunk) pieces.push(bytes.subarray(i, i + chunk));
  return readXmlUrls(Readable.from(pieces), 50_000);
};

describe("readXmlUrls", () => {
  it("reads a urlset with lastmod, BOM, comments, processing instructions and extensions", async () => {
    const xml = `\uFEFF
<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>
<!-- generated -->
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>
      https://example.com/a?x=1&amp;y=2
    </loc>
    <lastmod>2026-11-01T10:00:00+00:00</lastmod>
    <image:image><image:loc>https://cdn.example.com/a.jpg</image:loc></image:image>
    <xhtml:link rel="alternate" hreflang="fr" href="https://example.com/fr/a"/>
  </url>
  <url><loc><![CDATA[https://example.com/b]]></loc><news:news><news:title>T</news:title></news:news></url>
</urlset>`;
    const source = await read(xml);
    expect(source.kind).toBe("urlset");
    expect(source.entries).toEqual([
      { loc: "https://example.com/a?x=1&y=2", lastmod: new Date("2026-11-01T10:00:00Z") },
      { loc: "https://example.com/b", lastmod: null },
    ]);
  });

  it("reads <priority> from 0.0 to 1.0 and ignores any other value", async () => {
    const urls = ["0.8", " 1.0 ", "0", "", "1.5", "-0.1", "high"].map((priority, i) => `<url><loc>https://example.com/${i}</loc><priority>${priority}</priority></url>`);
    const source = await read(`<urlset>${urls.join("")}<url><loc>https://example.com/none</loc><lastmod>2026-01-02</lastmod></url></urlset>`);
    expect(source.entries).toStrictEqual([
      { loc: "https://example.com/0", lastmod: null, priority: 0.8 },
      { loc: "https://example.com/1", lastmod: null, priority: 1 },
      { loc: "https://example.com/2", lastmod: null, priority: 0 },
      ...[3, 4, 5, 6].map((i) => ({ loc: `https://example.com/${i}`, lastmod: null })),
      { loc: "https://example.com/none", lastmod: new Date("2026-01-02") },
    ]);
  });

  it("hands a urlset's entries over a thousand at a time while reading, never holding them all; an index's children are returned", async () => {
    const urls = Array.from({ length: 2500 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`).join("");
    const batches: number[] = [];
    const onEntries = async (entries: unknown[]) => void batches.push(entries.length);
    const urlset = await readXmlUrls(Readable.from([`<urlset>`, ...urls.match(/.{1,4000}/g)!, `</urlset>`]), 50_000, { onEntries });
    expect(urlset).toMatchObject({ kind: "urlset", count: 2500, entries: [] });
    expect(batches.reduce((a, b) => a + b, 0)).toBe(2500);
    expect(Math.max(...batches)).toBeLessThan(1100);
    batches.length = 0;
    const index = await readXmlUrls(Readable.from([`<sitemapindex><sitemap><loc>https://example.com/a.xml</loc></sitemap></sitemapindex>`]), 50_000, { onEntries });
    expect(index).toMatchObject({ kind: "sitemapindex", count: 1, entries: [{ loc: "https://example.com/a.xml" }] });
    expect(batches).toEqual([]);
  });

  it("reads a sitemap index", async () => {
    const source = await read(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/s1.xml.gz</loc><lastmod>2026-01-02</lastmod></sitemap></sitemapindex>`,
    );
    expect(source).toEqual({ kind: "sitemapindex", count: 1, entries: [{ loc: "https://example.com/s1.xml.gz", lastmod: new Date("2026-01-02") }] });
  });

  it("reads an RSS 2.0 feed and a Google Merchant feed", async () => {
    const rss = await read(`<rss version="2.0"><channel><title>Shop</title><link>https://example.com/</link><item><title>A</title><link>https://example.com/p/a</link></item></channel></rss>`);
    expect(rss.entries.map((e) => e.loc)).toEqual(["https://example.com/p/a"]);
    const merchant = await read(
      `<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0"><channel><item><g:id>1</g:id><g:link>https://example.com/p/1</g:link><g:image_link>https://example.com/1.jpg</g:image_link></item></channel></rss>`,
    );
    expect(merchant.entries.map((e) => e.loc)).toEqual(["https://example.com/p/1"]);
  });

  it("reads an Atom feed's alternate links", async () => {
    const atom = await read(
      `<feed xmlns="http://www.w3.org/2005/Atom"><link href="https://example.com/"/><entry><link rel="self" href="https://example.com/feed/1"/><link href="https://example.com/post/1"/><updated>2026-03-04T05:06:07Z</updated></entry></feed>`,
    );
    expect(atom.entries).toEqual([{ loc: "https://example.com/post/1", lastmod: new Date("2026-03-04T05:06:07Z") }]);
  });

  it.each([
    ["mismatched tags", `<urlset><url><loc>https://example.com/</url></loc></urlset>`],
    ["an undefined entity", `<urlset><url><loc>https://example.com/&nbsp;</loc></url></urlset>`],
    ["not XML at all", `{"urls": []}`],
  ])("refuses %s with a readable reason", async (_label, xml) => {
    await expect(read(xml)).rejects.toBeInstanceOf(SourceFormatError);
  });

  it("refuses an HTML page", async () => {
    await expect(read("<html><head></head><body></body></html>")).rejects.toThrow("root element is <html>");
  });
});

describe("a document cut off before its closing tags", () => {
  it("keeps every complete entry read before the cut, and says it was cut off", async () => {
    const cut = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.test/1</loc></url><url><loc>https://a.test/2</loc></url><url><loc>https://a.test/3-partial`;
    const source = await readXmlUrls(Readable.from([Buffer.from(cut)]), 100);
    expect(source).toEqual({
      kind: "urlset",
      truncated: true,
      count: 2,
      entries: [
        { loc: "https://a.test/1", lastmod: null },
        { loc: "https://a.test/2", lastmod: null },
      ],
    });
  });

  it.each([
    ["inside its first entry", `<urlset><url><loc>http://shop.test/x</loc></url`, "URLs"],
    ["inside the first entry's <loc>", `<?xml version="1.0"?><urlset><url><loc>http://shop.te`, "URLs"],
    ["right after its root element", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`, "URLs"],
    ["in an index, inside its first child", `<sitemapindex><sitemap><loc>http://shop.test/a.xml</loc>`, "child sitemaps"],
    ["in an RSS feed, inside its first item", `<rss><channel><item><link>http://shop.test/p/1</link>`, "URLs"],
    ["in an Atom feed, inside its first entry", `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="http://shop.test/p/1"/>`, "URLs"],
  ])("refuses a document cut off %s: nothing read before the cut is nothing kept", async (_label, cut, what) => {
    const reading = readXmlUrls(Readable.from([Buffer.from(cut)]), 100);
    await expect(reading).rejects.toBeInstanceOf(SourceFormatError);
    await expect(reading).rejects.toThrow(`cut off after 0 ${what}, before its first complete entry`);
  });

  it("keeps a document cut off after its first complete entry", async () => {
    const source = await readXmlUrls(Readable.from([Buffer.from(`<urlset><url><loc>http://shop.test/x</loc></url><url><loc>http://shop.test/y`)]), 100);
    expect(source).toMatchObject({ truncated: true, count: 1, entries: [{ loc: "http://shop.test/x" }] });
  });

  it("a complete document is not cut off", async () => {
    const whole = `<urlset><url><loc>https://a.test/1</loc></url></urlset>`;
    expect((await readXmlUrls(Readable.from([Buffer.from(whole)]), 100)).truncated).toBeUndefined();
  });
});

describe("a feed's relative links", () => {
  const FEED_URL = "https://shop.test/feeds/all.xml";
  /** `baseUrl` null: read with no document address at all. */
  const links = async (xml: string, baseUrl: string | null = FEED_URL) => (await readXmlUrls(Readable.from([Buffer.from(xml)]), 100, baseUrl === null ? {} : { baseUrl })).entries.map((e) => e.loc);
  const rss = (items: string, rssAttributes = "", channelAttributes = "") => `<rss version="2.0"${rssAttributes}><channel${channelAttributes}><title>Shop</title>${items}</channel></rss>`;
  const rdf = (items: string, rootAttributes = "") =>
    `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"${rootAttributes}><channel rdf:about="https://shop.test/"><title>Shop</title></channel>${items}</rdf:RDF>`;
  const atom = (entries: string, feedAttributes = "") => `<feed xmlns="http://www.w3.org/2005/Atom"${feedAttributes}><title>Shop</title>${entries}</feed>`;

  describe("RSS 2.0", () => {
    it.each([
      ["a root-relative link resolves against the document's address", rss(`<item><link>/relative/uri</link></item>`), "https://shop.test/relative/uri"],
      ["a path-relative link resolves against the document's directory", rss(`<item><link>p/1?x=1</link></item>`), "https://shop.test/feeds/p/1?x=1"],
      ["a protocol-relative link takes the document's scheme", rss(`<item><link>//cdn.shop.test/p/2</link></item>`), "https://cdn.shop.test/p/2"],
      ["xml:base on <rss>", rss(`<item><link>p/3</link></item>`, ` xml:base="https://shop.test/blog/"`), "https://shop.test/blog/p/3"],
      ["xml:base on <channel>", rss(`<item><link>p/4</link></item>`, "", ` xml:base="https://shop.test/news/"`), "https://shop.test/news/p/4"],
      ["xml:base on <item>", rss(`<item xml:base="https://shop.test/deals/"><link>p/5</link></item>`), "https://shop.test/deals/p/5"],
      ["xml:base on <link> itself", rss(`<item><link xml:base="https://shop.test/sale/">p/6</link></item>`), "https://shop.test/sale/p/6"],
      [
        "a relative xml:base resolves against its parent's: channel, then item",
        rss(`<item xml:base="2026/"><link>p/7</link></item>`, "", ` xml:base="/archive/"`),
        "https://shop.test/archive/2026/p/7",
      ],
      ["an absolute link is kept as written", rss(`<item xml:base="https://elsewhere.test/"><link>https://shop.test/p/8</link></item>`), "https://shop.test/p/8"],
    ])("%s", async (_label, xml, expected) => {
      expect(await links(xml)).toEqual([expected]);
    });

    it("an xml:base closes with its element: the next item resolves against the document again", async () => {
      expect(await links(rss(`<item xml:base="https://shop.test/one/"><link>a</link></item><item><link>b</link></item>`))).toEqual(["https://shop.test/one/a", "https://shop.test/feeds/b"]);
    });

    it("without any base, a relative link is kept as written (and counted invalid where it is stored)", async () => {
      expect(await links(rss(`<item><link>/relative/uri</link></item>`), null)).toEqual(["/relative/uri"]);
    });

    it("an empty link is no link", async () => {
      expect(await links(rss(`<item><link>  </link></item><item><link>/p/9</link></item>`))).toEqual(["https://shop.test/p/9"]);
    });
  });

  describe("RSS 1.0 (RDF)", () => {
    it.each([
      ["a relative link resolves against the document's address", rdf(`<item rdf:about="https://shop.test/p/1"><link>/p/1</link></item>`), "https://shop.test/p/1"],
      ["xml:base on <rdf:RDF>", rdf(`<item rdf:about="x"><link>p/2</link></item>`, ` xml:base="https://shop.test/catalog/"`), "https://shop.test/catalog/p/2"],
      ["xml:base on <item>", rdf(`<item rdf:about="x" xml:base="/shoes/"><link>p/3</link></item>`), "https://shop.test/shoes/p/3"],
      [
        "a relative xml:base on <item> below one on the root",
        rdf(`<item rdf:about="x" xml:base="red/"><link>p/4</link></item>`, ` xml:base="https://shop.test/shoes/"`),
        "https://shop.test/shoes/red/p/4",
      ],
    ])("%s", async (_label, xml, expected) => {
      expect(await links(xml)).toEqual([expected]);
    });
  });

  describe("Atom", () => {
    it.each([
      ["a relative href resolves against the document's address", atom(`<entry><link href="/post/1"/></entry>`), "https://shop.test/post/1"],
      ["xml:base on <feed>", atom(`<entry><link href="post/2"/></entry>`, ` xml:base="https://shop.test/blog/"`), "https://shop.test/blog/post/2"],
      ["xml:base on <entry>", atom(`<entry xml:base="https://shop.test/news/"><link href="post/3"/></entry>`), "https://shop.test/news/post/3"],
      ["xml:base on <link>, for its own href", atom(`<entry><link xml:base="https://shop.test/tips/" href="post/4"/></entry>`), "https://shop.test/tips/post/4"],
      [
        "relative xml:bases nest: feed, entry, then link",
        atom(`<entry xml:base="2026/"><link xml:base="11/" href="post/5"/></entry>`, ` xml:base="https://shop.test/blog/"`),
        "https://shop.test/blog/2026/11/post/5",
      ],
      ["a relative xml:base on the feed resolves against the document's address", atom(`<entry><link href="post/6"/></entry>`, ` xml:base="/journal/"`), "https://shop.test/journal/post/6"],
      ["only the alternate link is the entry's", atom(`<entry><link rel="self" href="/feed/7"/><link rel="alternate" href="/post/7"/></entry>`), "https://shop.test/post/7"],
    ])("%s", async (_label, xml, expected) => {
      expect(await links(xml)).toEqual([expected]);
    });
  });

  it("a sitemap's <loc> is not resolved: the protocol lists absolute URLs only", async () => {
    expect(await links(`<urlset xml:base="https://shop.test/"><url><loc>/a</loc></url></urlset>`)).toEqual(["/a"]);
  });
});

describe("RSS items identified by their guid", () => {
  const items = async (body: string) =>
    (await readXmlUrls(Readable.from([Buffer.from(`<rss version="2.0"><channel>${body}</channel></rss>`)]), 100, { baseUrl: "https://shop.test/rss.xml" })).entries.map((e) => e.loc);

  it.each([
    ["a guid without isPermaLink is a permalink (RSS 2.0's default)", `<item><guid>https://shop.test/p/1</guid></item>`, ["https://shop.test/p/1"]],
    ['isPermaLink="true"', `<item><guid isPermaLink="true">https://shop.test/p/2</guid></item>`, ["https://shop.test/p/2"]],
    ['isPermaLink="false" is not a URL to warm', `<item><guid isPermaLink="false">shop-item-3</guid></item>`, []],
    ['isPermaLink="FALSE", in any case', `<item><guid isPermaLink=" FALSE ">https://shop.test/p/4</guid></item>`, []],
    ["a relative permalink resolves like a link", `<item><guid>/p/5</guid></item>`, ["https://shop.test/p/5"]],
    ["the link wins over the guid when both are there", `<item><guid>https://shop.test/guid/6</guid><link>https://shop.test/p/6</link></item>`, ["https://shop.test/p/6"]],
    ["the link wins, whichever comes first", `<item><link>https://shop.test/p/7</link><guid>https://shop.test/guid/7</guid></item>`, ["https://shop.test/p/7"]],
    ["a guid that is not a permalink leaves the link alone", `<item><guid isPermaLink="false">8</guid><link>https://shop.test/p/8</link></item>`, ["https://shop.test/p/8"]],
  ])("%s", async (_label, body, expected) => {
    expect(await items(body)).toEqual(expected);
  });

  it("an Atom entry's <id> is not a link", async () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>https://shop.test/p/9</id></entry></feed>`;
    expect((await readXmlUrls(Readable.from([Buffer.from(atom)]), 100)).entries).toEqual([]);
  });
});
