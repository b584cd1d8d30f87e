import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The guide: Markdown files of docs/guide/<reader>/, served at /docs/<reader>/<slug> as the
 * repository keeps them (read when the pages are built). Each reader's index.md lists its pages, in
 * reading order: that list is the navigation. A few documents outside docs/guide (CONTRIBUTING.md,
 * the architecture, the ADRs, the benchmarks) are served too, so that the guide's links to them work.
 */
export const READERS = [
  { id: "site-owners", name: "Site owners" },
  { id: "integrators", name: "Integrators" },
  { id: "operators", name: "Operators" },
  { id: "contributors", name: "Contributors" },
] as const;
type ReaderId = (typeof READERS)[number]["id"];

export type GuidePage = {
  /** The address it is served at, `/docs/<reader>/<slug>`. */
  href: string;
  /** The file, relative to the repository's root. */
  file: string;
  reader: ReaderId;
  title: string;
  /** The opening "For … Answers …" line, without its Markdown quote. */
  audience: string;
  /** The Markdown after the title. */
  body: string;
};

const root = () => process.cwd();
const GUIDE_DIR = "docs/guide";

/** Documents the guide links to that live outside docs/guide, by the address each is served at. */
function servedElsewhere(): Record<string, string> {
  const served: Record<string, string> = {
    "CONTRIBUTING.md": "/docs/contributors/contributing",
    "docs/architecture.md": "/docs/contributors/architecture",
    "docs/adr/README.md": "/docs/contributors/adr",
    "docs/benchmarks.md": "/docs/benchmarks",
    "docs/benchmarks/history.md": "/docs/benchmarks/history",
  };
  const adrs = path.join(/*turbopackIgnore: true*/ root(), "docs/adr");
  if (existsSync(adrs)) {
    for (const name of readdirMarkdown(adrs)) if (name !== "README.md") served[`docs/adr/${name}`] = `/docs/contributors/adr/${name.replace(/\.md$/, "")}`;
  }
  return served;
}

function readdirMarkdown(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith(".md"));
}

/** Every Markdown file under docs/guide, relative to the root. */
function guideFiles(): string[] {
  const dir = path.join(/*turbopackIgnore: true*/ root(), GUIDE_DIR);
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((name) => name.endsWith(".md"))
    .map((name) => `${GUIDE_DIR}/${name.split(path.sep).join("/")}`)
    .sort();
}

/** The address a guide file (relative to the root) is served at. */
function hrefOfFile(file: string): string | undefined {
  if (/^docs\/screenshots\/[\w-]+\.png$/.test(file)) return `/docs/${file.slice("docs/".length)}`;
  if (file.startsWith(`${GUIDE_DIR}/`)) {
    const slug = file.slice(GUIDE_DIR.length + 1).replace(/\.md$/, "");
    return `/docs/${slug.replace(/\/index$/, "")}`;
  }
  return servedElsewhere()[file];
}

function readerOf(file: string): ReaderId {
  const reader = file.startsWith(`${GUIDE_DIR}/`) ? file.split("/")[2] : "contributors";
  return (READERS.find((r) => r.id === reader)?.id ?? "contributors") as ReaderId;
}

/** Reads one file of the guide (or one served beside it); undefined when it does not exist. */
function readGuideFile(file: string): GuidePage | undefined {
  const href = file.endsWith(".md") ? hrefOfFile(file) : undefined;
  const full = path.join(/*turbopackIgnore: true*/ root(), file);
  if (!href || !existsSync(full)) return undefined;
  const text = readFileSync(full, "utf8");
  const title = /^# (.+)$/m.exec(text)?.[1]?.trim() ?? path.basename(file, ".md");
  const afterTitle = text.replace(/^[\s\S]*?^# .+$\n?/m, "");
  const opening = /^\s*> (.+(?:\n> .+)*)\n?/.exec(afterTitle);
  const audience = opening ? (opening[1] ?? "").replace(/\n> /g, " ").trim() : "";
  return { href, file, reader: readerOf(file), title, audience, body: opening ? afterTitle.slice(opening[0].length) : afterTitle };
}

/**
 * Where a link of `fromFile` leads: a relative link to a served Markdown file becomes its address
 * (its anchor kept), anything else stays as written. `undefined` for a relative link to a file the
 * site does not serve (source code): the page shows its text without a link.
 */
export function resolveGuideLink(fromFile: string, href: string): string | undefined {
  if (/^[a-z]+:|^\/|^#/i.test(href)) return href;
  const [target = "", anchor] = href.split("#", 2);
  const file = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), target));
  const served = hrefOfFile(file);
  if (!served || !existsSync(path.join(/*turbopackIgnore: true*/ root(), file))) return undefined;
  return anchor ? `${served}#${anchor}` : served;
}

/** The relative links of a reader's index.md, in order: that reader's pages. */
function indexLinks(indexFile: string): string[] {
  const text = readFileSync(path.join(/*turbopackIgnore: true*/ root(), indexFile), "utf8");
  const files: string[] = [];
  for (const match of text.matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)) {
    const file = path.posix.normalize(path.posix.join(path.posix.dirname(indexFile), match[1] ?? ""));
    if (!files.includes(file)) files.push(file);
  }
  return files;
}

export type ReaderSection = { id: ReaderId; name: string; index: GuidePage | undefined; pages: GuidePage[] };

/** Every reader's index and pages, in the order their index lists them. */
export function guideSections(): ReaderSection[] {
  return READERS.map((reader) => {
    const indexFile = `${GUIDE_DIR}/${reader.id}/index.md`;
    const index = readGuideFile(indexFile);
    const pages = index ? indexLinks(indexFile).flatMap((file) => readGuideFile(file) ?? []) : [];
    return { ...reader, index, pages };
  });
}

/** Every page the site serves under /docs from Markdown: the guide's, and those it links to beside it. */
export function everyGuidePage(): GuidePage[] {
  const pages = new Map<string, GuidePage>();
  for (const file of [...guideFiles(), ...Object.keys(servedElsewhere())]) {
    const page = readGuideFile(file);
    if (page && !pages.has(page.href)) pages.set(page.href, page);
  }
  return [...pages.values()];
}

/** The page served at `/docs/<slug…>`, or undefined. */
export function guidePageAt(slug: string[]): GuidePage | undefined {
  const href = `/docs/${slug.join("/")}`;
  return everyGuidePage().find((page) => page.href === href);
}

/** The screenshots the guide shows, by file name (docs/screenshots/*.png, served at /docs/screenshots/). */
export function guideScreenshots(): string[] {
  const dir = path.join(/*turbopackIgnore: true*/ root(), "docs/screenshots");
  return existsSync(dir) ? readdirSync(dir).filter((name) => /^[\w-]+\.png$/.test(name)) : [];
}

/** A screenshot's bytes, or undefined for a name the guide does not have. */
export function readGuideScreenshot(name: string): Buffer | undefined {
  return guideScreenshots().includes(name) ? readFileSync(path.join(/*turbopackIgnore: true*/ root(), "docs/screenshots", name)) : undefined;
}
