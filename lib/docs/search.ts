import MiniSearch from "minisearch";
import { everyGuidePage, READERS } from "./catalogue";
import { guideSections, parseGuideMarkdown } from "./markdown";
import { GUIDE_SEARCH_OPTIONS, type GuideSearchEntry } from "./search-options";

/** Every section of every served page, as the search index holds them. */
export function guideSearchEntries(): GuideSearchEntry[] {
  return everyGuidePage().flatMap((page) =>
    guideSections(parseGuideMarkdown(page.body)).map((section) => ({
      id: section.anchor ? `${page.href}#${section.anchor}` : page.href,
      href: section.anchor ? `${page.href}#${section.anchor}` : page.href,
      page: page.title,
      reader: READERS.find((reader) => reader.id === page.reader)?.name ?? page.reader,
      heading: section.heading,
      text: section.text,
    })),
  );
}

/** The guide's search index, serialised for the browser (built with the pages, never at request time). */
export function guideSearchIndex(): string {
  const index = new MiniSearch<GuideSearchEntry>(GUIDE_SEARCH_OPTIONS);
  const seen = new Set<string>();
  // A heading repeated on one page gets the same anchor twice only if the slugger says so; keep the first.
  index.addAll(guideSearchEntries().filter((entry) => !seen.has(entry.id) && seen.add(entry.id)));
  return JSON.stringify(index);
}
