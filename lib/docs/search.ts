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
  // Ids are unique: one page an address, and the slugger numbers a repeated heading's anchor.
  index.addAll(guideSearchEntries());
  return JSON.stringify(index);
}
