"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import type { Page } from "@/components/dashboard/types";
import { count } from "@/components/runs/format";
import { Pager } from "@/components/runs/pager";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { TextInput } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { TableScroll } from "@/components/ui/table-scroll";
import type { OrganizationRecord } from "./types";

const LIMIT = 50;

/** The calls figure as the quota counts it, against the month's allowance. */
export function CallsThisMonth({ organization }: { organization: Pick<OrganizationRecord, "calls_this_month" | "monthly_calls"> }) {
  return (
    <span className="tabular-nums">
      {count(organization.calls_this_month)} / {count(organization.monthly_calls)}
    </span>
  );
}

export function OrganizationState({ organization }: { organization: Pick<OrganizationRecord, "suspended"> }) {
  return organization.suspended ? <StatusBadge status="suspended" /> : <StatusBadge status="active" />;
}

export function OrganizationsView() {
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [offset, setOffset] = useState(0);
  const params = new URLSearchParams({ limit: String(LIMIT), offset: String(offset), ...(query ? { q: query } : {}) });
  const organizations = useQuery({
    queryKey: ["operator", "organizations", query, offset],
    queryFn: () => api<Page<OrganizationRecord>>(`/api/operator/organizations?${params}`),
  });
  return (
    <div className="space-y-6">
      <PageHeader
        title="Organizations"
        subtitle="Every organization of this service, newest first. Calls this month: the planned calls of the runs created since the 1st (UTC), as the quota counts them, against the plan's or the organization's own monthly allowance. Last activity: the latest run created, API key used or member's page seen."
      />
      <Card>
        <form
          className="mb-4 flex flex-wrap items-center gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            setOffset(0);
            setQuery(search.trim());
          }}
        >
          <TextInput aria-label="Search organizations" placeholder="Name or member's e-mail address" value={search} onChange={(e) => setSearch(e.target.value)} className="max-w-sm" />
          <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
            Search
          </button>
        </form>
        {organizations.isPending ? (
          <Loading />
        ) : organizations.error ? (
          <ErrorNote error={organizations.error} />
        ) : organizations.data.data.length === 0 ? (
          <EmptyState title={query ? `No organization matches “${query}”` : "No organization yet"} />
        ) : (
          <TableScroll label="Organizations">
            <table className="w-full min-w-[860px] text-left text-sm">
              <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
                <tr>
                  <th className="py-2 pr-4 font-medium">Organization</th>
                  <th className="py-2 pr-4 font-medium">Plan</th>
                  <th className="py-2 pr-4 font-medium">Calls this month / quota</th>
                  <th className="py-2 pr-4 font-medium">Sites</th>
                  <th className="py-2 pr-4 font-medium">Members</th>
                  <th className="py-2 pr-4 font-medium">Last activity</th>
                  <th className="py-2 font-medium">State</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {organizations.data.data.map((organization) => (
                  <tr key={organization.id} className="align-top" data-testid="organization-row">
                    <td className="py-3 pr-4">
                      <Link href={`/operator/organizations/${organization.id}`} className="font-medium text-brand-700 hover:underline">
                        {organization.name}
                      </Link>
                      <p className="text-xs text-slate-500">#{organization.id}</p>
                    </td>
                    <td className="py-3 pr-4">{organization.plan.name}</td>
                    <td className="py-3 pr-4">
                      <CallsThisMonth organization={organization} />
                    </td>
                    <td className="py-3 pr-4 tabular-nums">{organization.sites}</td>
                    <td className="py-3 pr-4 tabular-nums">{organization.members}</td>
                    <td className="py-3 pr-4 text-slate-600">
                      <LocalTime value={organization.last_activity_at} empty="never" />
                    </td>
                    <td className="py-3">
                      <OrganizationState organization={organization} />
                      {organization.suspended?.reason ? <p className="mt-1 max-w-xs text-xs text-slate-600">{organization.suspended.reason}</p> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {organizations.data ? <Pager offset={offset} limit={LIMIT} total={organizations.data.total} onChange={setOffset} noun="organizations" /> : null}
      </Card>
    </div>
  );
}
