import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_TAG_GUIDES, GUIDE_PATHS, helpFor } from "@/lib/core/guide-paths";
import { everyGuidePage, type GuidePage, guideSections, resolveGuideLink } from "./catalogue";
import { headingAnchors, linkTargets, parseGuideMarkdown } from "./markdown";
import { guideSearchEntries } from "./search";

/**
 * The guide as a reader meets it: every page reachable from its reader's contents and saying whom
 * it is for; no link, in the guide, the README or the dashboard's help, to a page or an anchor that
 * does not exist.
 */
const pages = everyGuidePage();
const byHref = new Map(pages.map((page) => [page.href, page]));
const anchors = new Map<string, Set<string>>();
function anchorsOf(page: GuidePage): Set<string> {
  const known = anchors.get(page.href) ?? new Set(headingAnchors(parseGuideMarkdown(page.body)));
  anchors.set(page.href, known);
  return known;
}

/** What is wrong with a link to a served address (`/docs/…#anchor`), or undefined. */
function brokenServedLink(target: string): string | undefined {
  const [address = "", anchor] = target.split("#", 2);
  if (address === "/docs/api" || address === "/docs") return undefined;
  const page = byHref.get(address);
  if (!page) return "no such page";
  if (anchor && !anchorsOf(page).has(anchor)) return `no heading #${anchor} on ${page.file}`;
  return undefined;
}

describe("the guide", () => {
  it("serves a page for each reader, each page listed in its reader's contents", () => {
    const sections = guideSections();
    for (const section of sections) expect(section.pages.length, section.id).toBeGreaterThan(1);
    const listed = new Set(sections.flatMap((section) => section.pages.map((page) => page.href)));
    const unlisted = pages.filter((page) => page.file.startsWith("docs/guide/") && !page.file.endsWith("/index.md") && !listed.has(page.href));
    expect(unlisted.map((page) => page.file)).toEqual([]);
  });

  it("opens each page with who it is for and what it answers", () => {
    const guidePages = pages.filter((page) => page.file.startsWith("docs/guide/") && !page.file.endsWith("/index.md"));
    expect(guidePages.length).toBeGreaterThan(30);
    for (const page of guidePages) expect(page.audience, page.file).toMatch(/^\*\*For\*\* .+\*\*Answers:\*\* .+/);
  });

  it("has no link to a missing file, page or heading", () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const href of linkTargets(parseGuideMarkdown(page.body))) {
        if (/^[a-z]+:/i.test(href)) continue;
        if (href.startsWith("#")) {
          if (!anchorsOf(page).has(href.slice(1))) broken.push(`${page.file}: ${href}`);
          continue;
        }
        if (href.startsWith("/")) {
          if (href.startsWith("/docs")) {
            const problem = brokenServedLink(href);
            if (problem) broken.push(`${page.file}: ${href} (${problem})`);
          }
          continue;
        }
        const served = resolveGuideLink(page.file, href);
        const file = path.posix.normalize(path.posix.join(path.posix.dirname(page.file), href.split("#")[0] ?? ""));
        if (served) {
          const problem = brokenServedLink(served);
          if (problem) broken.push(`${page.file}: ${href} (${problem})`);
        } else if (!existsSync(file)) broken.push(`${page.file}: ${href} (no file ${file})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("is where the README, the dashboard's help and the API reference send readers", () => {
    const readme = readFileSync("README.md", "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(150);
    const broken: string[] = [];
    for (const href of linkTargets(parseGuideMarkdown(readme))) {
      if (/^[a-z]+:|^#/i.test(href)) continue;
      const [file = ""] = href.split("#");
      if (!existsSync(file)) broken.push(`README.md: ${href}`);
    }
    for (const target of [...Object.values(GUIDE_PATHS), ...Object.values(API_TAG_GUIDES)]) {
      const problem = brokenServedLink(target);
      if (problem) broken.push(`${target}: ${problem}`);
    }
    for (const pathname of ["/sites", "/sites/1", "/sites/1/warm", "/boosts/1", "/runs/1", "/webhooks", "/keys", "/team", "/usage", "/audit", "/account", "/outbox", "/operator"]) {
      const help = helpFor(pathname);
      if (!help) broken.push(`${pathname}: no help page`);
      else if (brokenServedLink(help)) broken.push(`${pathname}: help ${help} is not served`);
    }
    expect(broken).toEqual([]);
  });

  it("finds what readers search for on the page that answers it", () => {
    const entries = guideSearchEntries();
    const pagesMentioning = (word: RegExp) => new Set(entries.filter((entry) => word.test(`${entry.page} ${entry.heading} ${entry.text}`)).map((entry) => entry.href.split("#")[0]));
    expect(pagesMentioning(/Cloudflare/)).toContain(GUIDE_PATHS.botProtection);
    expect(pagesMentioning(/idempotency/i)).toContain(GUIDE_PATHS.apiConventions);
    expect(pagesMentioning(/two-factor/i)).toContain(GUIDE_PATHS.twoFactor);
    expect(pagesMentioning(/\bworkers?\b/i)).toContain("/docs/operators/workers-and-regions");
  });
});
