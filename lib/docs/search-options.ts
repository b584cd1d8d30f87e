import type { Options } from "minisearch";

/** One searchable part of the guide: a page's section, opened at its anchor. */
export type GuideSearchEntry = { id: string; href: string; page: string; reader: string; heading: string; text: string };

/**
 * How the guide's index is built (at build time, lib/docs/search.ts) and read (in the browser,
 * components/docs/guide-search.tsx): both must use the same options.
 */
export const GUIDE_SEARCH_OPTIONS: Options<GuideSearchEntry> = {
  fields: ["page", "heading", "text"],
  storeFields: ["href", "page", "reader", "heading"],
  searchOptions: { boost: { page: 3, heading: 2 }, prefix: true, fuzzy: 0.15, combineWith: "AND" },
};
