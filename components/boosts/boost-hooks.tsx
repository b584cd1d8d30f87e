"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { z } from "zod";
import { api } from "@/components/dashboard/api";
import { checkWith, useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import type { Page } from "@/components/dashboard/types";
import { ColumnHeads, td } from "@/components/runs/run-cells";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { ShownOnce } from "@/components/ui/shown-once";
import { Field, TextInput } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { type boostHookSchema, type createdBoostHookSchema, createHookBody } from "@/lib/boosts/hook-schemas";
import { Can } from "@/components/dashboard/role";
import { TableScroll } from "@/components/ui/table-scroll";

type BoostHook = z.output<typeof boostHookSchema>;
const HOOK_FIELDS = ["name"];
/** The dashboard sends no Idempotency-Key: its answer is never a replay, so it always holds the URL. */
type CreatedBoostHook = z.output<typeof createdBoostHookSchema> & { url: string };

/** A boost has a handful of hooks at most (one per deploy pipeline or CMS): one page holds them. */
const LIMIT = 100;

const hooksQueryKey = (boostId: number) => ["boost-hooks", boostId] as const;

function NewHookNotice({ url, onDone }: { url: string; onDone: () => void }) {
  return (
    <ShownOnce
      className="mb-4"
      title="Your new deploy hook"
      warning="Copy its URL now: it is shown only once, and anyone who has it can start this boost."
      label="New deploy hook URL"
      value={url}
      onDone={onDone}
    >
      <p className="mt-3 text-sm text-green-800">Call it from your deploy script or CI:</p>
      <pre className="mt-1 overflow-x-auto rounded-md bg-white px-3 py-2 font-mono text-xs text-slate-800">curl -X POST {url}</pre>
    </ShownOnce>
  );
}

function HookRow({ boostId, hook }: { boostId: number; hook: BoostHook }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api(`/boosts/${boostId}/hooks/${hook.id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: hooksQueryKey(boostId) }),
  });
  return (
    <tr data-testid="boost-hook-row">
      <td className={`${td} whitespace-normal`}>
        <p className="font-medium">{hook.name ?? <span className="text-slate-500">unnamed</span>}</p>
        <code className="text-xs text-slate-500">{hook.prefix}…</code>
      </td>
      <td className={td}>
        <LocalTime value={hook.last_used_at} empty="never" />
      </td>
      <td className={td}>
        <LocalTime value={hook.created_at} />
      </td>
      <td className={`${td} text-right`}>
        <Can atLeast="admin">
          <ConfirmButton label="Revoke" confirmLabel="Revoke hook" question="Revoke it? Its URL stops working at once." busy={revoke.isPending} onConfirm={() => revoke.mutate()} />
        </Can>
        <ErrorNote error={revoke.error} />
      </td>
    </tr>
  );
}

/** The boost's deploy hooks: secret URLs that start it without an API key, for CI, a CMS or a cache purge. */
export function BoostHooks({ boostId }: { boostId: number }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [createdUrl, setCreatedUrl] = useState<string | null>(null);
  const hooks = useQuery({
    queryKey: hooksQueryKey(boostId),
    queryFn: () => api<Page<BoostHook>>(`/boosts/${boostId}/hooks?limit=${LIMIT}`),
  });
  const body = { name: name.trim() || null };
  const errors = useFormErrors(body, HOOK_FIELDS, checkWith(createHookBody, body, HOOK_FIELDS));
  const create = useMutation({
    mutationFn: (sent: typeof body) => api<CreatedBoostHook>(`/boosts/${boostId}/hooks`, { method: "POST", body: sent }),
    onSuccess: (created) => {
      setName("");
      errors.clear();
      setCreatedUrl(created.url);
      void queryClient.invalidateQueries({ queryKey: hooksQueryKey(boostId) });
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  return (
    <Card title="Deploy hooks">
      <p className="mb-4 text-sm text-slate-600">
        A deploy hook is a secret URL: a <code>POST</code> to it starts this boost, with no API key, so that a deploy, a CMS publish or a cache purge can warm the site. Calls that arrive while a run
        is under way do not pile up: they add one follow-up run, which starts when the current one ends.
      </p>
      {createdUrl ? <NewHookNotice url={createdUrl} onDone={() => setCreatedUrl(null)} /> : null}
      <Can atLeast="admin">
        <form
          className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-start"
          onSubmit={(event) => {
            event.preventDefault();
            if (errors.attempt()) create.mutate(body);
          }}
        >
          <div className="flex-1">
            <Field label="Hook name (optional)" hint="What calls it, e.g. Production deploy." error={errors.error("name")}>
              {(a) => <TextInput {...a} name="hook-name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
            </Field>
          </div>
          <Button type="submit" busy={create.isPending} className="sm:mt-6">
            Create deploy hook
          </Button>
        </form>
        <FormProblems errors={errors} />
      </Can>
      {hooks.isPending ? (
        <Loading label="Loading deploy hooks…" />
      ) : hooks.isError ? (
        <ErrorNote error={hooks.error} />
      ) : hooks.data.total === 0 ? (
        <EmptyState title="No deploy hooks yet">
          <Can atLeast="admin" otherwise="An admin or owner of the organization creates them.">
            Create one to start this boost from your deploy pipeline.
          </Can>
        </EmptyState>
      ) : (
        <TableScroll label="Deploy hooks of this boost" className="-mx-4 sm:mx-0">
          <table className="min-w-full divide-y divide-slate-200">
            <caption className="sr-only">Deploy hooks of this boost</caption>
            <thead>
              <tr>
                <ColumnHeads labels={["Name", "Last used", "Created"]} actions />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {hooks.data.data.map((hook) => (
                <HookRow key={hook.id} boostId={boostId} hook={hook} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Card>
  );
}
