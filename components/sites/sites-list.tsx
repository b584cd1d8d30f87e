"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import type { Problems } from "@/lib/core/field-errors";
import { hostOfAddress } from "@/lib/sites/domain-name";
import type { Page, Site } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { FirstStepsCard } from "./first-steps-card";
import { Can } from "@/components/dashboard/role";

const sitesKey = ["sites"] as const;

const DOMAIN_FIELDS = ["domain"];

function AddSiteForm() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState("");
  /** The host taken from a whole address the owner pasted, said under the field while it is what the field holds. */
  const [kept, setKept] = useState<string | null>(null);
  const body = { domain };
  const errors = useFormErrors(body, DOMAIN_FIELDS, (): Problems => (domain.trim() ? {} : { domain: "Enter the host name your visitors use, e.g. www.example.com." }));
  const add = useMutation({
    mutationFn: (sent: typeof body) => api<Site>("/sites", { method: "POST", body: sent }),
    onSuccess: (site) => {
      queryClient.invalidateQueries({ queryKey: sitesKey });
      router.push(`/sites/${site.id}`);
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  const keptNote = kept !== null && kept === domain ? `Kept ${kept} from the address you pasted.` : null;
  return (
    <form
      className="flex flex-col gap-3 sm:flex-row sm:items-start"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        // A whole address (https://www.shop.com/products) is what people copy from the browser: its host is the domain meant.
        const host = hostOfAddress(domain);
        const sent = { domain: host ?? domain };
        if (host !== null && host !== domain.trim()) {
          setDomain(host);
          setKept(host);
        }
        if (errors.attempt()) add.mutate(sent);
      }}
    >
      <div className="flex-1">
        <Field label="Domain" hint={keptNote ?? "The host name your visitors use, e.g. www.example.com (a port is allowed; no path)."} error={errors.error("domain")}>
          {(a) => (
            <TextInput
              {...a}
              name="domain"
              placeholder="www.example.com"
              value={domain}
              onChange={(e) => setDomain(e.target.value)}
              onPaste={(e) => {
                // Taken at once when pasted, so that the owner sees what will be registered before adding it.
                const host = hostOfAddress(e.clipboardData.getData("text"));
                if (host === null) return;
                e.preventDefault();
                setDomain(host);
                setKept(host);
              }}
              autoComplete="off"
            />
          )}
        </Field>
        <ErrorNote error={errors.notice} />
      </div>
      <Button type="submit" busy={add.isPending} className="sm:mt-6">
        Add site
      </Button>
    </form>
  );
}

export function SitesList() {
  const sites = useQuery({ queryKey: [...sitesKey, "list"], queryFn: () => api<Page<Site>>("/sites?limit=100") });
  return (
    <div className="space-y-6">
      <PageHeader
        title="Sites"
        subtitle={
          <Can atLeast="admin" otherwise="The organization's sites: their ownership, sitemaps, boosts, traffic and runs.">
            Register a domain, prove you own it, then warm it from sitemaps, feeds or a CSV file.
          </Can>
        }
      />
      <Can atLeast="admin">
        <Card title="Add a site">
          <AddSiteForm />
        </Card>
      </Can>
      <Card title="Your sites">
        {sites.isPending ? (
          <Loading />
        ) : sites.error ? (
          <ErrorNote error={sites.error} />
        ) : sites.data.data.length === 0 ? (
          <EmptyState title="No sites yet">
            <Can atLeast="admin" otherwise="An admin or owner of the organization registers them.">
              Add your first domain above.
            </Can>
          </EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100">
            {sites.data.data.map((site) => (
              <li key={site.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <Link href={`/sites/${site.id}`} className="font-medium text-brand-700 hover:underline">
                  {site.domain}
                </Link>
                <span className="flex items-center gap-3 text-sm text-slate-500">
                  <StatusBadge status={site.validated ? "validated" : "not validated"} />
                  <span className="hidden sm:inline">
                    added <LocalTime value={site.created_at} />
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {/*
        Its steps are an admin's to take: a viewer or a member would be sent to controls they do not have.
        Last, and once the list is in place: it loads on its own, and arriving there it pushes nothing down.
      */}
      {sites.isPending ? null : (
        <Can atLeast="admin">
          <FirstStepsCard />
        </Can>
      )}
    </div>
  );
}
