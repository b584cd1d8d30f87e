"use client";

import MiniSearch, { type SearchResult } from "minisearch";
import { useEffect, useId, useRef, useState } from "react";
import { GUIDE_SEARCH_OPTIONS, type GuideSearchEntry } from "@/lib/docs/search-options";

const MAX_RESULTS = 8;

/**
 * Searches the guide in the browser: the index was built with the pages (/docs/search-index.json)
 * and is fetched once, the first time the box is used.
 */
export function GuideSearch() {
  const [query, setQuery] = useState("");
  const [index, setIndex] = useState<MiniSearch<GuideSearchEntry> | null>(null);
  const [failed, setFailed] = useState(false);
  const loading = useRef(false);
  const id = useId();

  const load = () => {
    if (loading.current) return;
    loading.current = true;
    fetch("/docs/search-index.json")
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
      .then((json) => setIndex(MiniSearch.loadJSON<GuideSearchEntry>(json, GUIDE_SEARCH_OPTIONS)))
      .catch(() => setFailed(true));
  };
  useEffect(() => {
    if (query) load();
  });

  const results: SearchResult[] = index && query.trim() ? index.search(query.trim()).slice(0, MAX_RESULTS) : [];
  return (
    <search className="relative">
      <label htmlFor={id} className="sr-only">
        Search the guide
      </label>
      <input
        id={id}
        type="search"
        value={query}
        placeholder="Search the guide (Cloudflare, worker, idempotency…)"
        onFocus={load}
        onChange={(event) => setQuery(event.target.value)}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500"
        aria-describedby={`${id}-results`}
      />
      <div id={`${id}-results`} aria-live="polite" className="mt-2">
        {failed ? (
          <p className="text-sm text-red-700">The search index could not be loaded: the contents beside the page list every guide.</p>
        ) : query.trim() && index ? (
          results.length === 0 ? (
            <p className="text-sm text-slate-600">Nothing in the guide matches “{query.trim()}”.</p>
          ) : (
            <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 bg-white">
              {results.map((result) => (
                <li key={result.id}>
                  <a href={result.href as string} className="block px-3 py-2 hover:bg-slate-50">
                    <span className="block text-sm font-medium text-brand-700 underline">
                      {result.page as string}
                      {result.heading ? ` › ${result.heading as string}` : ""}
                    </span>
                    <span className="block text-xs text-slate-500">For {String(result.reader).toLowerCase()}</span>
                  </a>
                </li>
              ))}
            </ul>
          )
        ) : null}
      </div>
    </search>
  );
}
