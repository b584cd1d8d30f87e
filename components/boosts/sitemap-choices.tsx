"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useId, useState } from "react";
import { api } from "@/components/dashboard/api";
import type { Page, Sitemap } from "@/components/dashboard/types";
import { ErrorNote, Loading } from "@/components/ui/card";
import { CheckboxGroup, toggle } from "@/components/ui/choices";
import { StatusBadge } from "@/components/ui/status-badge";

/**
 * The site's sitemaps as checkboxes, each with its state, or the way to add one when there is none.
 * `chooseTheOnlyOne` (a new boost): a site's only sitemap starts checked, once, as there is nothing
 * else to choose; unchecking it stays unchecked.
 */
export function SitemapChoices({
  siteId,
  chosen,
  onChange,
  error,
  chooseTheOnlyOne = false,
}: {
  siteId: number;
  chosen: number[];
  onChange: (ids: number[]) => void;
  error?: string;
  chooseTheOnlyOne?: boolean;
}) {
  const id = useId();
  const sitemaps = useQuery({ queryKey: ["sitemaps", { siteId }, "all"], queryFn: () => api<Page<Sitemap>>(`/sites/${siteId}/sitemaps?limit=100`) });
  const only = sitemaps.data?.data.length === 1 ? sitemaps.data.data[0]!.id : null;
  const [preselected, setPreselected] = useState(false);
  useEffect(() => {
    if (!chooseTheOnlyOne || preselected || only === null) return;
    setPreselected(true);
    if (chosen.length === 0) onChange([only]);
  }, [chooseTheOnlyOne, preselected, only, chosen.length, onChange]);
  return (
    <CheckboxGroup legend="Sitemaps to warm" error={error}>
      {sitemaps.isPending ? (
        <Loading label="Loading sitemaps…" />
      ) : sitemaps.isError ? (
        <ErrorNote error={sitemaps.error} />
      ) : sitemaps.data.data.length === 0 ? (
        <p className="text-sm text-slate-600">
          This site has no sitemap yet.{" "}
          <Link href={`/sites/${siteId}`} className="font-medium text-brand-700 hover:underline">
            Add one on the site page
          </Link>
          , or use a CSV file.
        </p>
      ) : (
        <ul className="w-full space-y-2">
          {sitemaps.data.data.map((sitemap) => (
            <li key={sitemap.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <input
                id={`${id}-${sitemap.id}`}
                type="checkbox"
                className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
                checked={chosen.includes(sitemap.id)}
                onChange={(event) => onChange(toggle(chosen, sitemap.id, event.target.checked))}
                aria-describedby={`${id}-${sitemap.id}-state`}
              />
              <label htmlFor={`${id}-${sitemap.id}`} className="min-w-0 break-all text-sm text-slate-800">
                {sitemap.url}
              </label>
              <span id={`${id}-${sitemap.id}-state`} className="inline-flex items-center gap-2 text-xs text-slate-500">
                <StatusBadge status={sitemap.status} />
                {sitemap.status === "error" ? sitemap.status_message : `${sitemap.url_count.toLocaleString("en")} URL${sitemap.url_count === 1 ? "" : "s"}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </CheckboxGroup>
  );
}
