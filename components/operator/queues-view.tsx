"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/components/dashboard/api";
import { count, duration } from "@/components/runs/format";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { TableScroll } from "@/components/ui/table-scroll";
import type { QueuesView as Queues } from "./types";

const queuesKey = ["operator", "queues"] as const;

type FailedJob = Queues["failed"][number];

/** The oldest waiting job's age, in words. */
function age(seconds: number | null): string {
  if (seconds === null) return "—";
  return duration(new Date(0).toISOString(), new Date(seconds * 1000).toISOString());
}

function FailedJobRow({ job }: { job: FailedJob }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => api(`/api/operator/queues/jobs/${job.id}/retry`, { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queuesKey }),
  });
  return (
    <tr className="align-top" data-testid="failed-job-row">
      <td className="py-3 pr-4">
        <p className="font-medium">{job.queue}</p>
        <code className="text-xs text-slate-500">{job.id}</code>
      </td>
      <td className="py-3 pr-4">
        <p className="whitespace-pre-wrap break-words text-red-700">{job.error ?? "no error recorded"}</p>
        <details className="mt-1 text-xs text-slate-500">
          <summary>Payload</summary>
          <pre className="mt-1 whitespace-pre-wrap break-all">{JSON.stringify(job.data, null, 2)}</pre>
        </details>
      </td>
      <td className="py-3 pr-4 tabular-nums">{job.retries}</td>
      <td className="py-3 pr-4">
        <LocalTime value={job.failed_at} />
      </td>
      <td className="py-3 text-right">
        {retry.isSuccess ? (
          <span role="status" className="text-sm text-green-700">
            Queued again
          </span>
        ) : (
          <Button variant="secondary" busy={retry.isPending} onClick={() => retry.mutate()}>
            Retry
          </Button>
        )}
        <ErrorNote error={retry.error} />
      </td>
    </tr>
  );
}

export function QueuesView() {
  const view = useQuery({ queryKey: queuesKey, queryFn: () => api<Queues>("/api/operator/queues"), refetchInterval: 10_000 });
  if (view.isPending) return <Loading />;
  if (view.error) return <ErrorNote error={view.error} />;
  const { driver, queues, failed } = view.data;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Queues"
        subtitle="The background jobs (sitemap reads, run planning, batches, endings, the schedule tick, e-mails and webhooks), per kind: waiting to start (created or due for a retry), being worked, and failed after their last attempt. On the embedded database, being worked includes the run jobs the server took straight from the request, which have no queue row."
      />
      {driver === "inngest" ? (
        <Card>
          <EmptyState title="Jobs run on Inngest">With the Inngest driver, the jobs live in Inngest: its dashboard shows the queues and retries failed runs.</EmptyState>
        </Card>
      ) : (
        <>
          <Card title="Per queue">
            {queues.length === 0 ? (
              <EmptyState title="No job yet" />
            ) : (
              <TableScroll label="Per queue">
                <table className="w-full text-left text-sm">
                  <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
                    <tr>
                      <th className="py-2 pr-4 font-medium">Queue</th>
                      <th className="py-2 pr-4 font-medium">Waiting</th>
                      <th className="py-2 pr-4 font-medium">Active</th>
                      <th className="py-2 pr-4 font-medium">Failed</th>
                      <th className="py-2 font-medium">Oldest waiting for</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {queues.map((queue) => (
                      <tr key={queue.name} data-testid="queue-row">
                        <td className="py-2 pr-4 font-mono text-xs">{queue.name}</td>
                        <td className="py-2 pr-4 tabular-nums">{count(queue.waiting)}</td>
                        <td className="py-2 pr-4 tabular-nums">{count(queue.active)}</td>
                        <td className={`py-2 pr-4 tabular-nums ${queue.failed ? "text-red-700" : ""}`}>{count(queue.failed)}</td>
                        <td className="py-2 tabular-nums">{age(queue.oldest_waiting_seconds)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </Card>
          <Card title="Failed jobs">
            <p className="mb-3 text-sm text-slate-600">
              The latest 100, newest first. Retry puts a job back in its queue for one more attempt; its handler is idempotent, so nothing is counted twice.
            </p>
            {failed.length === 0 ? (
              <EmptyState title="No failed job" />
            ) : (
              <TableScroll label="Failed jobs">
                <table className="w-full min-w-[760px] text-left text-sm">
                  <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
                    <tr>
                      <th className="py-2 pr-4 font-medium">Job</th>
                      <th className="py-2 pr-4 font-medium">Error</th>
                      <th className="py-2 pr-4 font-medium">Retries</th>
                      <th className="py-2 pr-4 font-medium">Failed</th>
                      <th className="py-2 font-medium">
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {failed.map((job) => (
                      <FailedJobRow key={job.id} job={job} />
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </Card>
        </>
      )}
    </div>
  );
}
