import { gzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { sitemaps, sitemapUrls } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import type { DatabaseHandle } from "@/lib/db";
import { fetchCsvUrls } from "@/lib/sources";
import { createSite } from "@/lib/sites/service";
import { MAX_PROCESSING_ATTEMPTS, processSitemap } from "./process";
import { discoverSitemaps } from "./discover";
import { addSitemap } from "./service";

/** `breaksFirst`: the first answer sends half the body, then the connection breaks. */
type Route = { body: string | Buffer; headers?: Record<string, string>; status?: number; breaksFirst?: boolean };
const routes = new Map<string, Route>();
/** Every request the origin received, as host + path. */
const requestLog: string[] = [];
let world: LocalWorld;
let handle: DatabaseHandle;
let ctx: AccountContext;

const urlset = (urls: string[]) => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc><lastmod>2026-05-01</lastmod></url>`).join("")}</urlset>`;
const index = (children: string[]) => `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children.map((c) => `<sitemap><loc>${c}</loc></sitemap>`).join("")}</sitemapindex>`;

beforeAll(async () => {
  world = await startLocalWorld(
    (req, res) => {
      requestLog.push(`${(req.headers.host ?? "").replace(/:\d+$/, "")}${req.url}`);
      const route = routes.get(`${(req.headers.host ?? "").replace(/:\d+$/, "")}${req.url}`);
      if (!route) return void res.writeHead(404).end();
      if (route.breaksFirst) {
        route.breaksFirst = false;
        res.writeHead(200, { "content-type": "application/xml" });
        const body = Buffer.from(route.body);
        res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
        return;
      }
      res.writeHead(route.status ?? 200, route.headers ?? { "content-type": "application/xml" }).end(route.body);
    },
    { email: "sources@example.com" },
  );
  ({ handle, ctx } = world);
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

/** Each test uses domains of its own: the site is created for `domain` and the sitemap processed. */
async function processed(domain: string, path: string) {
  const site = await createSite(ctx, { domain });
  const sitemap = await addSitemap(ctx, site.id, { url: `http://${site.domain}${path}` });
  const outcome = await processSitemap(handle.db, sitemap.id);
  const [row] = await handle.db.select().from(sitemaps).where(eq(sitemaps.id, sitemap.id));
  const urls = await handle.db.select().from(sitemapUrls).where(eq(sitemapUrls.sitemapId, sitemap.id));
  return { outcome, row: row!, urls: urls.map((u) => u.url).sort(), site, sitemap };
}

const serve = (url: string, body: string | Buffer, headers?: Record<string, string>) => routes.set(url, { body, headers });

describe("processSitemap", () => {
  it("follows an index, skips children outside the domain, detects a cycle, keeps lastmod", async () => {
    serve("idx.test/index.xml", index(["http://idx.test/a.xml", "http://idx.test/nested.xml", "http://evil.test/x.xml"]));
    serve("idx.test/nested.xml", index(["http://idx.test/index.xml", "http://idx.test/b.xml", "http://idx.test/a.xml"]));
    serve("idx.test/a.xml", urlset(["http://idx.test/1", "http://idx.test/2", "http://other.test/3"]));
    serve("idx.test/b.xml", urlset(["http://idx.test/2", "http://www.idx.test/4"]));
    const { row, urls } = await processed("idx.test", "/index.xml");
    expect(row.status).toBe("done");
    expect(urls).toEqual(["http://idx.test/1", "http://idx.test/2", "http://www.idx.test/4"].sort());
    expect(row.urlCount).toBe(3);
    expect(row.statusMessage).toContain("3 URLs from 4 documents");
    expect(row.statusMessage).toContain("1 URL outside");
    expect(row.statusMessage).toContain("1 child sitemap skipped");
    expect(row.statusMessage).toContain("repeated child sitemaps ignored");
    expect(row.lastProcessedAt).toBeInstanceOf(Date);
  });

  it("skips an index's children that cannot be read (404, invalid XML, 503 after retries), stores the others and names them", async () => {
    serve("partial.test/index.xml", index(["http://partial.test/a.xml", "http://partial.test/missing.xml", "http://partial.test/broken.xml", "http://partial.test/down.xml"]));
    serve("partial.test/a.xml", urlset(["http://partial.test/1", "http://partial.test/2"]));
    serve("partial.test/broken.xml", "<urlset><url><loc>http://partial.test/3</url></loc></urlset>");
    routes.set("partial.test/down.xml", { body: "down", status: 503 });
    const { outcome, row, urls } = await processed("partial.test", "/index.xml");
    expect(outcome.status).toBe("done");
    expect(row.status).toBe("done");
    expect(urls).toEqual(["http://partial.test/1", "http://partial.test/2"]);
    expect(row.statusMessage).toMatch(/^2 URLs from 2 documents; 3 child sitemaps could not be read and were skipped: /);
    expect(row.statusMessage).toContain("http://partial.test/missing.xml (http://partial.test/missing.xml answered HTTP 404)");
    expect(row.statusMessage).toContain("http://partial.test/down.xml (http://partial.test/down.xml answered HTTP 503)");
  }, 20_000);

  it("takes an attempt that stopped half-way up where it was: its retry reads only the children not stored whole", async () => {
    const requested = () => requestLog.filter((r) => r.startsWith("resume.test/")).map((r) => r.slice("resume.test".length));
    for (const name of ["a", "b", "c"]) serve(`resume.test/${name}.xml`, urlset([1, 2, 3].map((i) => `http://resume.test/${name}/${i}`)));
    serve("resume.test/index.xml", index(["http://resume.test/a.xml", "http://resume.test/b.xml", "http://resume.test/c.xml"]));
    const site = await createSite(ctx, { domain: "resume.test" });
    const sitemap = await addSitemap(ctx, site.id, { url: "http://resume.test/index.xml" });
    // The database fails while c's URLs are written (a lost connection, say): the attempt stops there.
    // (Children one at a time, so a and b are stored whole by then.)
    let writes = 0;
    const flaky = new Proxy(handle.db, {
      get(target, property, receiver) {
        if (property !== "execute") return Reflect.get(target, property, receiver);
        return (query: Parameters<typeof target.execute>[0]) => {
          // One statement writes each child's three URLs: a's, b's, then c's.
          if (++writes === 3) {
            return Promise.reject(new Error("Connection terminated unexpectedly"));
          }
          return target.execute(query);
        };
      },
    });
    const settings = { ...process.env };
    process.env.PREHEAT_SITEMAP_CHILDREN_AT_ONCE = "1"; // a, b, then c: a and b are stored whole when c fails
    try {
      expect((await processSitemap(flaky, sitemap.id, { final: false })).status).toBe("retry");
      expect(requested()).toEqual(["/index.xml", "/a.xml", "/b.xml", "/c.xml"]);
      const outcome = await processSitemap(handle.db, sitemap.id, { final: false });
      expect(outcome).toMatchObject({ status: "done", message: "9 URLs from 4 documents." });
      expect(requested()).toEqual(["/index.xml", "/a.xml", "/b.xml", "/c.xml", "/index.xml", "/c.xml"]);
    } finally {
      if (settings.PREHEAT_SITEMAP_CHILDREN_AT_ONCE === undefined) delete process.env.PREHEAT_SITEMAP_CHILDREN_AT_ONCE;
      else process.env.PREHEAT_SITEMAP_CHILDREN_AT_ONCE = settings.PREHEAT_SITEMAP_CHILDREN_AT_ONCE;
    }
    const urls = await handle.db.select().from(sitemapUrls).where(eq(sitemapUrls.sitemapId, sitemap.id));
    expect(urls).toHaveLength(9);
    const [row] = await handle.db.select().from(sitemaps).where(eq(sitemaps.id, sitemap.id));
    expect(row).toMatchObject({ status: "done", urlCount: 9 });
  });

  it("counts a child's skipped URLs once when a broken transfer is read again", async () => {
    const urls = ["not a URL", ...Array.from({ length: 40 }, (_, i) => `http://again-read.test/${i}`)];
    serve("again-read.test/index.xml", index(["http://again-read.test/a.xml"]));
    routes.set("again-read.test/a.xml", { body: Buffer.from(urlset(urls)), breaksFirst: true });
    const { outcome, urls: stored } = await processed("again-read.test", "/index.xml");
    expect(stored).toHaveLength(40);
    expect(outcome.message).toBe("40 URLs from 2 documents; 1 invalid URL skipped.");
    expect(requestLog.filter((r) => r === "again-read.test/a.xml")).toHaveLength(2);
  }, 20_000);

  it("keeps the URLs a child gave before it turned out invalid, and says so", async () => {
    serve("half.test/index.xml", index(["http://half.test/a.xml", "http://half.test/half.xml"]));
    serve("half.test/a.xml", urlset(["http://half.test/1"]));
    serve("half.test/half.xml", `<urlset><url><loc>http://half.test/2</loc></url><url><loc>http://half.test/3</loc></url><url><loc>http://half.test/4</url></urlset>`);
    const { outcome, urls, row } = await processed("half.test", "/index.xml");
    expect(outcome.status).toBe("done");
    expect(urls).toEqual(["http://half.test/1", "http://half.test/2", "http://half.test/3"]);
    expect(row.statusMessage).toMatch(/1 child sitemap could not be read and was skipped: http:\/\/half\.test\/half\.xml \(The document is not valid XML.*; the 2 URLs read before were kept\)/);
  });

  it("keeps what a cut-off sitemap listed before the cut, and says so", async () => {
    serve("cut.test/sitemap.xml", `<?xml version="1.0"?><urlset><url><loc>http://cut.test/1</loc></url><url><loc>http://cut.test/2</loc></url><url><loc>http://cut.test/3`);
    const { outcome, row, urls } = await processed("cut.test", "/sitemap.xml");
    expect(outcome.status).toBe("done");
    expect(urls).toEqual(["http://cut.test/1", "http://cut.test/2"]);
    expect(row.statusMessage).toBe("2 URLs from 1 document; the document was cut off after 2 URLs: what came before the cut was kept.");
  });

  it("ends in error when the document is cut off before its first complete entry: nothing was kept", async () => {
    serve("cutfirst.test/sitemap.xml", `<urlset><url><loc>http://cutfirst.test/x</loc></url`);
    const { outcome, row, urls } = await processed("cutfirst.test", "/sitemap.xml");
    expect(outcome.status).toBe("error");
    expect(row.status).toBe("error");
    expect(row.statusMessage).toBe("The document is cut off after 0 URLs, before its first complete entry.");
    expect(urls).toEqual([]);
  });

  it("skips a child cut off before its first complete entry, as any child that cannot be read", async () => {
    serve("cutchild.test/index.xml", index(["http://cutchild.test/a.xml", "http://cutchild.test/cut.xml"]));
    serve("cutchild.test/a.xml", urlset(["http://cutchild.test/1"]));
    serve("cutchild.test/cut.xml", `<urlset><url><loc>http://cutchild.test/2`);
    const { outcome, row, urls } = await processed("cutchild.test", "/index.xml");
    expect(outcome.status).toBe("done");
    expect(urls).toEqual(["http://cutchild.test/1"]);
    expect(row.statusMessage).toContain("1 child sitemap could not be read and was skipped: http://cutchild.test/cut.xml (The document is cut off after 0 URLs, before its first complete entry)");
  });

  it("fails when none of an index's children can be read, keeping nothing", async () => {
    serve("allbad.test/index.xml", index(["http://allbad.test/missing-1.xml", "http://allbad.test/missing-2.xml"]));
    const { outcome, row, urls } = await processed("allbad.test", "/index.xml");
    expect(outcome.status).toBe("error");
    expect(row.status).toBe("error");
    expect(row.statusMessage).toMatch(/none of whose 2 child sitemaps could be read/);
    expect(urls).toEqual([]);
  });

  it("reads a .xml.gz file and a gzip-encoded response", async () => {
    serve("gz.test/sitemap.xml.gz", gzipSync(urlset(["http://gz.test/a", "http://gz.test/b"])), { "content-type": "application/x-gzip" });
    expect((await processed("gz.test", "/sitemap.xml.gz")).urls).toEqual(["http://gz.test/a", "http://gz.test/b"]);
    serve("enc.test/sitemap.xml", gzipSync(urlset(["http://enc.test/a"])), { "content-type": "application/xml", "content-encoding": "gzip" });
    expect((await processed("enc.test", "/sitemap.xml")).urls).toEqual(["http://enc.test/a"]);
  });

  it("reads RSS and Atom feeds", async () => {
    serve("feed.test/rss.xml", `<rss version="2.0"><channel><item><link>http://feed.test/p/1</link></item><item><link>http://feed.test/p/2</link></item></channel></rss>`);
    expect((await processed("feed.test", "/rss.xml")).urls).toEqual(["http://feed.test/p/1", "http://feed.test/p/2"]);
    serve("atom.test/atom.xml", `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="http://atom.test/post"/></entry></feed>`);
    expect((await processed("atom.test", "/atom.xml")).urls).toEqual(["http://atom.test/post"]);
  });

  it("resolves a feed's relative links against its Content-Location, else the URL that answered it (after redirects)", async () => {
    const feed = (links: string[]) => `<rss version="2.0"><channel>${links.map((link) => `<item><link>${link}</link></item>`).join("")}</channel></rss>`;
    serve("rel.test/feeds/rss.xml", feed(["/p/1", "p/2"]));
    expect((await processed("rel.test", "/feeds/rss.xml")).urls).toEqual(["http://rel.test/feeds/p/2", "http://rel.test/p/1"]);
    serve("relcl.test/feed", feed(["p/3"]), { "content-type": "application/rss+xml", "content-location": "/archive/feed.xml" });
    expect((await processed("relcl.test", "/feed")).urls).toEqual(["http://relcl.test/archive/p/3"]);
    routes.set("relmoved.test/old.xml", { body: "", status: 301, headers: { location: "/new/feed.xml" } });
    serve("relmoved.test/new/feed.xml", feed(["p/4"]));
    expect((await processed("relmoved.test", "/old.xml")).urls).toEqual(["http://relmoved.test/new/p/4"]);
  });

  it("ends in error with a readable message for broken XML and for a missing file", async () => {
    serve("broken.test/sitemap.xml", `<urlset><url><loc>http://broken.test/a</url></loc></urlset>`);
    const broken = await processed("broken.test", "/sitemap.xml");
    expect(broken.row.status).toBe("error");
    expect(broken.row.statusMessage).toMatch(/^The document is not valid XML/);
    expect(broken.urls).toEqual([]);
    const missing = await processed("missing.test", "/nope.xml");
    expect(missing.row).toMatchObject({ status: "error" });
    expect(missing.row.statusMessage).toMatch(/answered HTTP 404\.$/);
  });

  it("replaces the URL set when processed again", async () => {
    serve("again.test/sitemap.xml", urlset(["http://again.test/a", "http://again.test/b"]));
    const first = await processed("again.test", "/sitemap.xml");
    expect(first.urls).toEqual(["http://again.test/a", "http://again.test/b"]);
    serve("again.test/sitemap.xml", urlset(["http://again.test/c"]));
    await processSitemap(handle.db, first.sitemap.id);
    const rows = await handle.db.select().from(sitemapUrls).where(eq(sitemapUrls.sitemapId, first.sitemap.id));
    expect(rows.map((r) => r.url)).toEqual(["http://again.test/c"]);
  });
});

describe("processSitemap never leaves a sitemap stuck", () => {
  it("skips and counts URLs longer than 2,048 characters (3,000 characters, and a 10 MB <loc>) and ends done", async () => {
    const long = `http://long.test/${"a".repeat(3000)}`;
    const huge = `http://long.test/${"b".repeat(10 * 1024 * 1024)}`;
    serve("long.test/sitemap.xml", urlset(["http://long.test/ok", long, huge, `http://long.test/${"c".repeat(2000)}`]));
    const { row, urls } = await processed("long.test", "/sitemap.xml");
    expect(row.status).toBe("done");
    expect(urls).toEqual(["http://long.test/ok", `http://long.test/${"c".repeat(2000)}`].sort());
    expect(row.statusMessage).toContain("2 URLs longer than 2,048 characters skipped");
  });

  it("ends in error with the last error once its attempts are spent, even when the job runner would try again", async () => {
    routes.set("flaky.test/sitemap.xml", { body: "down", status: 503 });
    const site = await createSite(ctx, { domain: "flaky.test" });
    const sitemap = await addSitemap(ctx, site.id, { url: "http://flaky.test/sitemap.xml" });
    const outcomes: string[] = [];
    // Job retries and restarts after crashes count alike: never `processing` for ever.
    for (let i = 0; i < MAX_PROCESSING_ATTEMPTS; i++) outcomes.push((await processSitemap(handle.db, sitemap.id, { final: false })).status);
    expect(outcomes).toEqual([...Array(MAX_PROCESSING_ATTEMPTS - 1).fill("retry"), "error"]);
    const [row] = await handle.db.select().from(sitemaps).where(eq(sitemaps.id, sitemap.id));
    expect(row).toMatchObject({ status: "error" });
    expect(row!.statusMessage).toMatch(/answered HTTP 503\. \(gave up after 6 attempts\)$/);
  });

  it("keeps the previous list readable until the new one is complete, and leaves no rows of an abandoned attempt", async () => {
    serve("gen.test/sitemap.xml", urlset(["http://gen.test/a", "http://gen.test/b"]));
    const first = await processed("gen.test", "/sitemap.xml");
    // An attempt that died half-way left rows of the next generation behind.
    await handle.db.insert(sitemapUrls).values({ sitemapId: first.sitemap.id, generation: first.row.urlsGeneration + 1, url: "http://gen.test/half-way" });
    serve("gen.test/sitemap.xml", urlset(["http://gen.test/c"]));
    expect((await processSitemap(handle.db, first.sitemap.id)).status).toBe("done");
    const rows = await handle.db.select().from(sitemapUrls).where(eq(sitemapUrls.sitemapId, first.sitemap.id));
    expect(rows.map((r) => r.url)).toEqual(["http://gen.test/c"]);
  });
});

describe("robots.txt and text sitemaps", () => {
  it("follows the Sitemap: lines of a robots.txt (any case, odd spacing, a BOM)", async () => {
    serve("robots.test/robots.txt", "\uFEFFUser-agent: *\r\nDisallow: /admin\r\nsitemap:http://robots.test/a.xml\r\n  SITEMAP :   http://robots.test/b.txt  \r\n", { "content-type": "text/plain" });
    serve("robots.test/a.xml", urlset(["http://robots.test/1"]));
    serve("robots.test/b.txt", "http://robots.test/2\n\nhttp://robots.test/3\n", { "content-type": "text/plain" });
    const { row, urls } = await processed("robots.test", "/robots.txt");
    expect(row.status).toBe("done");
    expect(urls).toEqual(["http://robots.test/1", "http://robots.test/2", "http://robots.test/3"]);
  });

  it("reads a plain-text sitemap, one URL a line", async () => {
    serve("text.test/sitemap.txt", "http://text.test/a\r\nhttp://text.test/b\r\nhttp://elsewhere.test/c\r\n", { "content-type": "text/plain; charset=utf-8" });
    const { row, urls } = await processed("text.test", "/sitemap.txt");
    expect(row.status).toBe("done");
    expect(urls).toEqual(["http://text.test/a", "http://text.test/b"]);
    expect(row.statusMessage).toContain("outside text.test skipped");
  });

  it("refuses a robots.txt that lists no sitemap", async () => {
    serve("nositemap.test/robots.txt", "User-agent: *\nDisallow:\n", { "content-type": "text/plain" });
    const { row } = await processed("nositemap.test", "/robots.txt");
    expect(row.status).toBe("error");
    expect(row.statusMessage).toMatch(/no URL line and no Sitemap: line/);
  });
});

describe("discoverSitemaps", () => {
  it("takes the robots.txt's Sitemap: lines on the site's domain", async () => {
    serve("disc1.test/robots.txt", "User-agent: *\nSitemap: http://disc1.test/products.xml\nSitemap: http://other.test/x.xml\n", { "content-type": "text/plain" });
    expect(await discoverSitemaps("disc1.test")).toEqual({ urls: ["http://disc1.test/products.xml"] });
  });

  it("falls back to /sitemap.xml, then /sitemap_index.xml", async () => {
    serve("disc2.test/sitemap_index.xml", index(["http://disc2.test/a.xml"]));
    expect(await discoverSitemaps("disc2.test")).toEqual({ urls: ["http://disc2.test/sitemap_index.xml"] });
  });

  it("says where it looked when nothing is found", async () => {
    const found = await discoverSitemaps("disc3.test");
    expect("problem" in found && found.problem).toMatch(/^No sitemap was found on disc3\.test\. Looked at: .*http:\/\/disc3\.test\/robots\.txt \(.*404.*http:\/\/disc3\.test\/sitemap_index\.xml/);
  });
});

describe("encodings", () => {
  const decl = (encoding: string) => `<?xml version="1.0" encoding="${encoding}"?>`;
  const body = (host: string) => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${host}/café</loc></url><url><loc>http://${host}/€uro</loc></url></urlset>`;
  const utf16be = (text: string) => Buffer.from(text, "utf16le").swap16();

  it.each([
    ["ISO-8859-1 (declared)", "latin.test", (h: string) => Buffer.from(decl("ISO-8859-1") + body(h).replace("/€uro", "/euro"), "latin1"), {}, ["café", "euro"]],
    [
      "Windows-1252 (declared)",
      "cp1252.test",
      (h: string) => Buffer.concat([Buffer.from(decl("windows-1252") + body(h).split("€")[0]!, "latin1"), Buffer.from([0x80]), Buffer.from(body(h).split("€")[1]!, "latin1")]),
      {},
      ["café", "€uro"],
    ],
    ["UTF-16 LE with its BOM", "utf16le.test", (h: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(decl("UTF-16") + body(h), "utf16le")]), {}, ["café", "€uro"]],
    ["UTF-16 BE with its BOM", "utf16be.test", (h: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(decl("UTF-16") + body(h))]), {}, ["café", "€uro"]],
    ["UTF-8 with a BOM", "bom.test", (h: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(decl("UTF-8") + body(h))]), {}, ["café", "€uro"]],
    [
      "ISO-8859-1 from the Content-Type charset",
      "charset.test",
      (h: string) => Buffer.from(body(h).replace("/€uro", "/euro"), "latin1"),
      { "content-type": "application/xml; charset=ISO-8859-1" },
      ["café", "euro"],
    ],
  ])("%s: accented URLs are percent-encoded from the right characters", async (_label, host, make, headers, paths) => {
    serve(`${host}/sitemap.xml`, make(host), { "content-type": "application/xml", ...headers });
    const { row, urls } = await processed(host, "/sitemap.xml");
    expect(row.status).toBe("done");
    expect(urls).toEqual(paths.map((p) => new URL(`http://${host}/${p}`).toString()).sort());
    expect(urls.some((u) => u.includes("%EF%BF%BD"))).toBe(false);
  });

  it("a CSV file in ISO-8859-1, as its Content-Type says", async () => {
    serve("csvlatin.test/urls.csv", Buffer.from("url\nhttp://csvlatin.test/café\n", "latin1"), { "content-type": "text/csv; charset=iso-8859-1" });
    const csv = await fetchCsvUrls("http://csvlatin.test/urls.csv", "csvlatin.test");
    expect([...csv.urls.keys()]).toEqual(["http://csvlatin.test/caf%C3%A9"]);
  });
});

describe("fetchCsvUrls", () => {
  it("keeps the valid URLs on the site's domain and counts the others", async () => {
    serve("csv.test/urls.csv", "url\nhttp://csv.test/a\nhttp://csv.test/a\nnot a url\nhttp://elsewhere.test/b\n,\n", { "content-type": "text/csv" });
    const result = await fetchCsvUrls("http://csv.test/urls.csv", "csv.test");
    expect([...result.urls.keys()]).toEqual(["http://csv.test/a"]);
    expect(result).toMatchObject({ invalid: 1, offDomain: 1, duplicates: 1, rows: 4 });
  });
});
