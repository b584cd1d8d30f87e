import GithubSlugger from "github-slugger";
import type { Heading, Link, Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { toString as textOf } from "mdast-util-to-string";
import { gfm } from "micromark-extension-gfm";

/**
 * A guide page's Markdown as its rendering sees it (the same parser as react-markdown and remark-gfm,
 * the same slugger as rehype-slug): its headings' anchors, its links and its sections, so that the
 * search and the link check agree with the page a reader opens.
 */
export function parseGuideMarkdown(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

function walk(node: Nodes, visit: (node: Nodes) => void) {
  visit(node);
  if ("children" in node) for (const child of node.children) walk(child, visit);
}

/** The anchors the page's headings get, in the rendered page (rehype-slug's). */
export function headingAnchors(tree: Root): string[] {
  const slugger = new GithubSlugger();
  const anchors: string[] = [];
  walk(tree, (node) => {
    if (node.type === "heading") anchors.push(slugger.slug(textOf(node)));
  });
  return anchors;
}

/** Every link's target in the page, as written. */
export function linkTargets(tree: Root): string[] {
  const targets: string[] = [];
  walk(tree, (node) => {
    if (node.type === "link") targets.push((node as Link).url);
  });
  return targets;
}

export type GuideSection = { heading: string; anchor: string; text: string };

/**
 * The page cut at its `##` and `###` headings, each part's plain text: what the search finds, so
 * that a result opens at the section that answers. The part before the first heading has no anchor.
 */
export function guideSections(tree: Root): GuideSection[] {
  const slugger = new GithubSlugger();
  const sections: GuideSection[] = [{ heading: "", anchor: "", text: "" }];
  for (const node of tree.children) {
    if (node.type === "heading") {
      const heading = textOf(node as Heading);
      const anchor = slugger.slug(heading);
      if ((node as Heading).depth <= 3) {
        sections.push({ heading, anchor, text: "" });
        continue;
      }
    }
    const current = sections[sections.length - 1] as GuideSection;
    current.text += `${textOf(node)}\n`;
  }
  return sections.filter((section) => section.heading || section.text.trim());
}
