"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import type { Problems } from "@/lib/core/field-errors";
import type { Page, Sitemap } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Field, TextInput } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { Can, useCan } from "@/components/dashboard/role";

const SITEMAP_FIELDS = ["url"];

const busy = (sitemap: Sitemap) => sitemap.status === "waiting" || sitemap.status === "processing";

function SitemapRow({ siteId, sitemap }: { siteId: number; sitemap: Sitemap }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api(`/sites/${siteId}/sitemaps/${sitemap.id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["sites", siteId, "sitemaps"] }),
  });
  const refresh = useMutation({
    mutationFn: () => api<Sitemap>(`/sites/${siteId}/sitemaps/${sitemap.id}/refresh`, { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["sites", siteId, "sitemaps"] }),
  });
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between" data-testid="sitemap-row">
      <div className="min-w-0 space-y-1">
        <p className="break-all text-sm font-medium text-slate-900">{sitemap.url}</p>
        <p className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
          <StatusBadge status={sitemap.status} />
          <span className="tabular-nums">{sitemap.url_count.toLocaleString("en")} URLs</span>
          {sitemap.last_processed_at ? (
            <span>
              · read <LocalTime value={sitemap.last_processed_at} />
            </span>
          ) : null}
          {sitemap.last_changed_at ? (
            <span>
              · list changed <LocalTime value={sitemap.last_changed_at} />
            </span>
          ) : null}
        </p>
        {sitemap.status_message ? <p className={`text-xs ${sitemap.status === "error" ? "text-red-700" : "text-slate-600"}`}>{sitemap.status_message}</p> : null}
        <ErrorNote error={remove.error ?? refresh.error} />
      </div>
      <div className="flex shrink-0 gap-2">
        <Can atLeast="admin">
          <Button
            variant="secondary"
            busy={refresh.isPending}
            disabled={busy(sitemap)}
            onClick={() => refresh.mutate()}
            title="Read it again now; boost runs also read a sitemap again when it is older than an hour."
          >
            Refresh
          </Button>
          <ConfirmButton label="Delete" confirmLabel="Delete sitemap" question="Delete this sitemap and its URLs?" busy={remove.isPending} onConfirm={() => remove.mutate()} />
        </Can>
      </div>
    </li>
  );
}

/** The site's sitemaps and feeds; polled while any is being read, so counts appear by themselves. */
export function SitemapsPanel({ siteId, domain }: { siteId: number; domain: string }) {
  const queryClient = useQueryClient();
  const canAdd = useCan("admin");
  const [url, setUrl] = useState("");
  const sitemaps = useQuery({
    queryKey: ["sites", siteId, "sitemaps"],
    queryFn: () => api<Page<Sitemap>>(`/sites/${siteId}/sitemaps?limit=100`),
    refetchInterval: (query) => (query.state.data?.data.some(busy) ? 1500 : false),
  });
  const body = { url };
  const errors = useFormErrors(body, SITEMAP_FIELDS, (): Problems => (url.trim() ? {} : { url: `Enter the sitemap's address, e.g. https://${domain}/sitemap.xml.` }));
  const add = useMutation({
    mutationFn: (sent: typeof body) => api<Sitemap>(`/sites/${siteId}/sitemaps`, { method: "POST", body: sent }),
    onSuccess: () => {
      setUrl("");
      discover.reset();
      queryClient.invalidateQueries({ queryKey: ["sites", siteId, "sitemaps"] });
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  const discover = useMutation({
    mutationFn: () => api<{ data: Sitemap[] }>(`/sites/${siteId}/sitemaps`, { method: "POST", body: { discover: true } }),
    // Found sitemaps answer what a refused address was for: its error goes with it.
    onMutate: () => add.reset(),
    onSuccess: () => {
      errors.clear();
      queryClient.invalidateQueries({ queryKey: ["sites", siteId, "sitemaps"] });
    },
  });
  return (
    <Card title="Sitemaps and feeds">
      <Can atLeast="admin">
        <form
          className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-start"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            discover.reset();
            if (errors.attempt()) add.mutate(body);
          }}
        >
          <div className="flex-1">
            <Field
              label="Sitemap URL"
              hint="An XML sitemap or sitemap index (gzip too), an RSS/Atom shopping feed, a text sitemap (one URL a line) or a robots.txt, on this domain."
              error={errors.error("url")}
            >
              {(a) => <TextInput {...a} name="sitemap-url" type="url" placeholder={`https://${domain}/sitemap.xml`} value={url} onChange={(e) => setUrl(e.target.value)} />}
            </Field>
          </div>
          <Button type="submit" busy={add.isPending} className="sm:mt-6">
            Add sitemap
          </Button>
          <Button
            variant="secondary"
            busy={discover.isPending}
            className="sm:mt-6"
            onClick={() => discover.mutate()}
            title="Reads the site's robots.txt, then /sitemap.xml and /sitemap_index.xml, HTTPS first"
          >
            Find sitemaps
          </Button>
        </form>
        <ErrorNote error={errors.notice ?? discover.error} />
      </Can>
      {sitemaps.isPending ? (
        <Loading />
      ) : sitemaps.error ? (
        <ErrorNote error={sitemaps.error} />
      ) : sitemaps.data.data.length === 0 ? (
        <EmptyState title="No sitemaps yet">{canAdd ? "Boosts warm the URLs of the sitemaps you add here." : "Boosts warm the URLs of the sitemaps an admin or owner adds here."}</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100">
          {sitemaps.data.data.map((sitemap) => (
            <SitemapRow key={sitemap.id} siteId={siteId} sitemap={sitemap} />
          ))}
        </ul>
      )}
    </Card>
  );
}
