"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { api } from "@/components/dashboard/api";
import type { AuditEvent, Page } from "@/components/dashboard/types";
import { Pager } from "@/components/runs/pager";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { TableScroll } from "@/components/ui/table-scroll";

const LIMIT = 50;
const FILTERS = ["actor", "action", "target_type", "target_id"] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const NO_FILTERS: Filters = { actor: "", action: "", target_type: "", target_id: "" };

const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500";
const td = "px-3 py-2 align-top text-sm text-slate-700";

/** The dashboard page of a target that still exists, by kind; a kind without a page of its own is not linked. */
const TARGET_PAGES: Partial<Record<string, (id: string) => string>> = {
  site: (id) => `/sites/${id}`,
  boost: (id) => `/boosts/${id}`,
  webhook: (id) => `/webhooks/${id}`,
  key: () => "/keys",
  user: () => "/team",
  invitation: () => "/team",
};

/**
 * "Nightly catalogue (boost 12)", linked to its page while it exists; "boost 12 (deleted)" once it
 * does not: the log names a target as it is now, and always by its id too.
 */
function AuditTarget({ target }: { target: AuditEvent["target"] }) {
  const kind = target.type.replaceAll("_", " ");
  if (target.id === null) return <>{kind}</>;
  const byId = `${kind} ${target.id}`;
  if (target.deleted) return <>{`${byId} (deleted)`}</>;
  if (target.name === null) return <>{byId}</>;
  const page = TARGET_PAGES[target.type]?.(target.id);
  return (
    <>
      {page ? (
        <Link href={page} className="font-medium text-brand-700 underline">
          {target.name}
        </Link>
      ) : (
        target.name
      )}{" "}
      <span className="text-slate-500">({byId})</span>
    </>
  );
}

/** The query string of GET /v1/audit-log: the filters that are set, and the page. */
function auditPath(filters: Filters, offset: number): string {
  const query = new URLSearchParams({ limit: String(LIMIT), offset: String(offset) });
  for (const name of FILTERS) if (filters[name].trim()) query.set(name, filters[name].trim());
  return `/audit-log?${query}`;
}

/** The organization's audit log, newest first, with the API's filters (actor, action, target). */
export function AuditView({ retentionDays }: { retentionDays: number }) {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [offset, setOffset] = useState(0);
  const events = useQuery({
    queryKey: ["audit-log", filters, { offset }],
    queryFn: () => api<Page<AuditEvent>>(auditPath(filters, offset)),
    placeholderData: keepPreviousData,
  });
  const apply = (next: Filters) => {
    setFilters(next);
    setOffset(0);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };
  const labels: Record<keyof Filters, [string, string]> = {
    actor: ["Actor", "An e-mail address or a key prefix"],
    action: ["Action", "site.created, or site. for every site action"],
    target_type: ["Target type", "site, boost, key…"],
    target_id: ["Target id", "e.g. 42"],
  };
  return (
    <>
      <PageHeader
        title="Audit log"
        subtitle={`Every change made in this organization, by a member in the dashboard, an API key or a deploy hook: who, what, on what, when and from which address. Updates list the fields they changed, never their values; secrets are never recorded. Events are kept ${retentionDays} days. Reads are not recorded.`}
      />
      <Card title="Filters">
        <form onSubmit={submit} className="grid gap-3 sm:grid-cols-4" aria-label="Audit log filters">
          {FILTERS.map((name) => (
            <Field key={name} label={labels[name][0]} hint={labels[name][1]}>
              {(props) => <TextInput {...props} name={name} value={draft[name]} onChange={(e) => setDraft({ ...draft, [name]: e.target.value })} />}
            </Field>
          ))}
          <div className="flex gap-2 sm:col-span-4">
            <Button type="submit">Apply filters</Button>
            <Button
              type="button"
              variant="secondary"
              onClick={() => {
                setDraft(NO_FILTERS);
                apply(NO_FILTERS);
              }}
            >
              Clear
            </Button>
          </div>
        </form>
      </Card>
      <div className="mt-6">
        <Card title="Events">
          {events.isPending ? (
            <Loading label="Loading the audit log…" />
          ) : events.isError ? (
            <ErrorNote error={events.error} />
          ) : events.data.total === 0 ? (
            <EmptyState title="No events">Nothing recorded matches these filters.</EmptyState>
          ) : (
            <>
              <TableScroll label="Audit events" className="-mx-4 sm:mx-0">
                <table className="min-w-full divide-y divide-slate-200">
                  <caption className="sr-only">Audit events, newest first</caption>
                  <thead>
                    <tr>
                      {["When", "Actor", "Action", "Target", "Changed fields", "Client address"].map((label) => (
                        <th key={label} scope="col" className={th}>
                          {label}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {events.data.data.map((event) => (
                      <tr key={event.id}>
                        <td className={td}>
                          <LocalTime value={event.created_at} />
                        </td>
                        <td className={td}>
                          <span className="text-xs text-slate-500">{event.actor.type}</span> <span className="font-mono text-xs">{event.actor.label}</span>
                        </td>
                        <td className={`${td} font-mono text-xs`}>
                          {event.action}
                          {event.count > 1 ? <span title={`${event.count} times within an hour of the first`}> ×{event.count}</span> : null}
                        </td>
                        <td className={td}>
                          <AuditTarget target={event.target} />
                        </td>
                        <td className={`${td} font-mono text-xs`}>{event.changes.length ? event.changes.join(", ") : "—"}</td>
                        <td className={`${td} font-mono text-xs`}>{event.client_address ?? "—"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              <Pager offset={offset} limit={LIMIT} total={events.data.total} onChange={setOffset} noun="events" />
            </>
          )}
        </Card>
      </div>
    </>
  );
}
