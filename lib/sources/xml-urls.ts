import type { Readable } from "node:stream";
import { SaxesParser } from "saxes";
import { decodedText } from "./encoding";
import { SourceFormatError } from "./errors";
import { feedLink, isPermaLink, XmlBases } from "./feed-links";

type XmlSourceKind = "urlset" | "sitemapindex" | "rss" | "atom";
/** `priority`: the sitemap's <priority> (0.0 to 1.0), only when the entry gives a valid one. */
export type UrlEntry = { loc: string; lastmod: Date | null; priority?: number };
/**
 * `text`: a plain-text sitemap (one URL a line); `robots`: a robots.txt, whose entries are its `Sitemap:` lines
 * (children, as an index's). `count`: the entries read, those handed to `onEntries` included (then not in
 * `entries`). `truncated`: the document ended before its closing tags (served whole, but cut off): its complete
 * entries are kept. A document cut off before its first complete entry is refused instead.
 */
export type XmlUrlSource = { kind: XmlSourceKind | "text" | "robots"; entries: UrlEntry[]; count: number; truncated?: boolean };

export type ReadOptions = {
  charset?: string | null;
  /**
   * Takes a document's URL entries a thousand at a time while it is read, instead of collecting
   * them: reading waits while it works, so a 50,000-URL sitemap is never held whole. An index's
   * children are returned in `entries` all the same.
   */
  onEntries?: (entries: UrlEntry[]) => Promise<void>;
  /**
   * The document's own address (its Content-Location, else the URL it was fetched from): a feed's
   * relative links resolve against it where no xml:base says otherwise. Sitemaps list absolute URLs only.
   */
  baseUrl?: string;
};

const HANDED_OVER_EVERY = 1000;

const KIND_BY_ROOT: Record<string, XmlSourceKind> = { urlset: "urlset", sitemapindex: "sitemapindex", rss: "rss", RDF: "rss", feed: "atom" };

/** Where the URL of each entry lives: the parent element's local name and the element's. */
const ENTRY_ELEMENT: Record<XmlSourceKind, { entry: string; url: string }> = {
  urlset: { entry: "url", url: "loc" },
  sitemapindex: { entry: "sitemap", url: "loc" },
  rss: { entry: "item", url: "link" }, // Google Merchant feeds use g:link: same local name
  atom: { entry: "entry", url: "link" },
};

const localName = (name: string) => name.slice(name.indexOf(":") + 1);
const isFeed = (kind: XmlSourceKind | undefined) => kind === "rss" || kind === "atom";

function parseLastmod(value: string): Date | null {
  const date = new Date(value.trim());
  return value.trim() && !Number.isNaN(date.getTime()) ? date : null;
}

/** The sitemaps protocol's <priority> is 0.0 to 1.0: anything else is ignored, as if not given. */
function parsePriority(value: string): number | undefined {
  const priority = Number(value);
  return value && priority >= 0 && priority <= 1 ? priority : undefined;
}

/**
 * Reads the URLs of a sitemap, sitemap index, RSS or Atom feed from a stream, without ever holding
 * the document: only the entries are kept. Namespaced extensions (image:, news:, xhtml:link) are
 * passed over; entities and CDATA in values are decoded. A feed's item is its link, else (RSS) its
 * guid when that is a permalink; relative links are resolved (lib/sources/feed-links.ts).
 */
export async function readXmlUrls(stream: Readable, maxEntries: number, options: ReadOptions = {}): Promise<XmlUrlSource> {
  const parser = new SaxesParser({ position: true });
  const stack: string[] = [];
  const bases = new XmlBases(options.baseUrl);
  let entries: UrlEntry[] = [];
  let count = 0;
  let kind: XmlSourceKind | undefined;
  let current: { loc: string | null; guid: string | null; lastmod: string | null; priority: string | null } | undefined;
  let field: "loc" | "guid" | "lastmod" | "priority" | undefined;
  let text = "";
  let failure: Error | undefined;
  let closing = false;
  let truncated = false;

  parser.on("error", (error) => {
    // At the end of the input, an error means the document stopped before its closing tags.
    if (closing) {
      truncated = true;
      return;
    }
    failure ??= new SourceFormatError(`not valid XML (${error.message.replace(/^undefined:/, "line ")})`);
  });
  parser.on("opentag", (tag) => {
    const attributes = tag.attributes as Record<string, string>;
    const name = localName(tag.name);
    if (!stack.length) {
      kind = KIND_BY_ROOT[name];
      if (!kind) failure ??= new SourceFormatError(`not a sitemap, sitemap index, RSS or Atom feed (its root element is <${tag.name}>)`);
    }
    const parent = stack[stack.length - 1];
    stack.push(name);
    bases.enter(attributes);
    if (!kind) return;
    const shape = ENTRY_ELEMENT[kind];
    if (name === shape.entry) current = { loc: null, guid: null, lastmod: null, priority: null };
    if (!current || parent !== shape.entry) return;
    if (kind === "atom" && name === "link") {
      const rel = attributes.rel ?? "alternate";
      if (rel === "alternate" && !current.loc && attributes.href) current.loc = feedLink(attributes.href, bases.current());
    } else if (name === shape.url && !current.loc) {
      field = "loc";
      text = "";
    } else if (kind === "rss" && name === "guid" && !current.guid && isPermaLink(attributes)) {
      field = "guid";
      text = "";
    } else if (name === "lastmod" || name === "updated") {
      field = "lastmod";
      text = "";
    } else if (name === "priority") {
      field = "priority";
      text = "";
    }
  });
  const collect = (value: string) => {
    if (field) text += value;
  };
  parser.on("text", collect);
  parser.on("cdata", collect);
  parser.on("closetag", () => {
    // Closed by the parser at a cut, or after an error: the entry being read is incomplete.
    if (closing || failure) return;
    const name = stack.pop();
    // A link's text resolves against the base of its own element, its xml:base included.
    const base = bases.current();
    bases.leave();
    if (field && current) {
      const value = text.trim();
      current[field] = (field === "loc" || field === "guid") && isFeed(kind) ? feedLink(value, base) : value;
      field = undefined;
    }
    if (kind && name === ENTRY_ELEMENT[kind].entry && current) {
      // The link wins over the guid, whichever comes first.
      const loc = current.loc || current.guid;
      if (loc) {
        if (count >= maxEntries) failure ??= new SourceFormatError(`more than ${maxEntries} entries`);
        else {
          count++;
          const lastmod = current.lastmod ? parseLastmod(current.lastmod) : null;
          const priority = current.priority ? parsePriority(current.priority) : undefined;
          entries.push(priority === undefined ? { loc, lastmod } : { loc, lastmod, priority });
        }
      }
      current = undefined;
    }
  });

  const handOver = options.onEntries;
  const handingOver = () => handOver && kind !== undefined && kind !== "sitemapindex";
  // Taken before the wait: a hand-over that fails leaves nothing to hand over again.
  const handOverRead = async () => {
    const taken = entries;
    entries = [];
    await handOver!(taken);
  };
  let first = true;
  const pieces = decodedText(stream, options.charset ?? null);
  try {
    for await (let piece of pieces) {
      if (first) {
        // A BOM or blank lines before the XML declaration are common; strict parsers reject them.
        piece = piece.replace(/^\uFEFF?\s+/, "").replace(/^\uFEFF/, "");
        first = !piece;
        // Not markup: a plain-text sitemap or a robots.txt.
        if (piece && !piece.startsWith("<")) return readTextUrls(piece, pieces, maxEntries);
      }
      if (piece) parser.write(piece);
      if (failure) break;
      if (entries.length >= HANDED_OVER_EVERY && handingOver()) await handOverRead();
    }
  } catch (error) {
    // The transfer broke off (or grew too big): what was read before it is handed over all the same.
    if (entries.length && handingOver()) await handOverRead();
    throw error;
  }
  if (!failure) {
    closing = true;
    try {
      parser.close();
    } catch {
      truncated = true;
    }
  }
  if (!kind) throw failure ?? new SourceFormatError("empty document");
  // Every complete entry read is handed over, also when the document then fails: its reader says how many.
  if (entries.length && handingOver()) await handOverRead();
  if (failure) throw failure;
  // Nothing read before the cut is nothing to keep: as unreadable as any broken document.
  if (truncated && !count) throw cutBeforeFirstEntry(kind);
  return truncated ? { kind, entries, count, truncated } : { kind, entries, count };
}

function cutBeforeFirstEntry(kind: XmlSourceKind): SourceFormatError {
  return new SourceFormatError(`cut off after 0 ${kind === "sitemapindex" ? "child sitemaps" : "URLs"}, before its first complete entry`);
}

const SITEMAP_LINE = /^\s*sitemap\s*:\s*(\S+)/i;
/** A text sitemap's line is a URL (2,048 characters at most to be kept): a longer line is not one. */
const MAX_TEXT_LINE = 64 * 1024;
const URL_LINE = /^https?:\/\/\S+$/i;
const URL_START = /^https?:\/\//i;
const ROBOTS_RULE = /^(user-agent|disallow|allow|crawl-delay|host|#)/i;
/** Enough of a first line to tell a URL or a robots.txt rule from anything else. */
const FIRST_LINE_JUDGED_AT = 16;

function notTextSitemap(): SourceFormatError {
  return new SourceFormatError("not a sitemap, sitemap index, RSS or Atom feed, text sitemap or robots.txt (its first line is neither a URL nor a robots.txt rule)");
}

/**
 * A plain-text sitemap (one absolute URL a line, as the sitemaps protocol allows) or a robots.txt
 * (its `Sitemap:` lines, in any case and spacing, become children to follow). Anything else that
 * is not markup is refused.
 */
async function readTextUrls(first: string, rest: AsyncIterable<string>, maxEntries: number): Promise<XmlUrlSource> {
  const urls: UrlEntry[] = [];
  const sitemaps: UrlEntry[] = [];
  let kind: "text" | "robots" | undefined;
  let partial = "";
  let lines = 0;
  const take = (line: string) => {
    const trimmed = line.replace(/^\uFEFF/, "").trim();
    if (!trimmed) return;
    lines++;
    const sitemap = SITEMAP_LINE.exec(trimmed);
    if (sitemap) {
      kind = "robots";
      if (sitemaps.length < maxEntries) sitemaps.push({ loc: sitemap[1]!, lastmod: null });
    } else if (URL_LINE.test(trimmed)) {
      if (urls.length >= maxEntries) throw new SourceFormatError(`more than ${maxEntries} entries`);
      urls.push({ loc: trimmed, lastmod: null });
    } else if (lines === 1 && !ROBOTS_RULE.test(trimmed)) {
      throw notTextSitemap();
    }
  };
  const feed = (text: string) => {
    const split = (partial + text).split(/\r?\n|\r/);
    partial = split.pop()!;
    for (const line of split) take(line);
    // A first line still open is judged as soon as its start tells: a document whose first line never
    // ends (or ends after megabytes) is refused then, not once the size cap or the line limit cuts it.
    const opening = partial.replace(/^\uFEFF/, "").trimStart();
    if (lines === 0 && opening.length >= FIRST_LINE_JUDGED_AT && !URL_START.test(opening) && !SITEMAP_LINE.test(opening) && !ROBOTS_RULE.test(opening)) throw notTextSitemap();
    if (partial.length > MAX_TEXT_LINE) throw new SourceFormatError(`a text document with a line longer than ${MAX_TEXT_LINE} characters`);
  };
  feed(first);
  for await (const piece of rest) feed(piece);
  take(partial);
  if (kind === "robots") return { kind, entries: sitemaps, count: sitemaps.length };
  if (!urls.length) throw new SourceFormatError("a text document with no URL line and no Sitemap: line");
  return { kind: "text", entries: urls, count: urls.length };
}
