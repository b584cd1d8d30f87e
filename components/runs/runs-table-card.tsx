"use client";

import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { api } from "@/components/dashboard/api";
import type { Page } from "@/components/dashboard/types";
import { Card, ErrorNote, Loading } from "@/components/ui/card";
import { TableScroll } from "@/components/ui/table-scroll";
import { pollWhileActive } from "./format";
import { Pager } from "./pager";

type RunsTableCardProps<T> = {
  title: string;
  /** The query's key without the page: invalidating it refreshes every page. */
  queryKey: readonly unknown[];
  path: (limit: number, offset: number) => string;
  limit: number;
  noun: string;
  caption: string;
  empty: ReactNode;
  /** The header cells, in the order `row` renders its cells. */
  head: ReactNode;
  row: (run: T) => ReactNode;
};

/**
 * One page of a runs table, polled every 2 s only while one of its runs is in progress: the card's
 * query, and that of any other part of the page that reads the same runs, so that both show one fetch.
 */
export function runsPageQuery<T extends { status: string }>(queryKey: readonly unknown[], path: (limit: number, offset: number) => string, limit: number, offset: number) {
  return queryOptions({
    queryKey: [...queryKey, { offset }],
    queryFn: () => api<Page<T>>(path(limit, offset)),
    refetchInterval: (query) => pollWhileActive(query.state.data?.data.map((run) => run.status)),
  });
}

/**
 * A card listing runs newest first, a page at a time, polled every 2 s only while one of them is in
 * progress; with its loading, error and empty states, and a table that scrolls sideways on phones.
 */
export function RunsTableCard<T extends { id: number; status: string }>({ title, queryKey, path, limit, noun, caption, empty, head, row }: RunsTableCardProps<T>) {
  const [offset, setOffset] = useState(0);
  const runs = useQuery({ ...runsPageQuery<T>(queryKey, path, limit, offset), placeholderData: keepPreviousData });
  return (
    <Card title={title}>
      {runs.isPending ? (
        <Loading label={`Loading ${noun}…`} />
      ) : runs.isError ? (
        <ErrorNote error={runs.error} />
      ) : runs.data.total === 0 ? (
        empty
      ) : (
        <>
          <TableScroll label={caption} className="-mx-4 sm:mx-0">
            <table className="min-w-full divide-y divide-slate-200">
              <caption className="sr-only">{caption}</caption>
              <thead>
                <tr>{head}</tr>
              </thead>
              <tbody className="divide-y divide-slate-100">{runs.data.data.map(row)}</tbody>
            </table>
          </TableScroll>
          <Pager offset={offset} limit={limit} total={runs.data.total} onChange={setOffset} noun={noun} />
        </>
      )}
    </Card>
  );
}
