"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useState } from "react";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import type { Boost } from "@/components/dashboard/types";
import { RegionChoices } from "@/components/runs/region-choices";
import { BlockedAgentsWarning } from "@/components/sites/blocked-verdicts";
import { Button, buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Check, CheckboxGroup, toggle } from "@/components/ui/choices";
import { Field, inputClass, TextInput } from "@/components/ui/field";
import { URL_ORDER_LABELS, type UrlOrder } from "@/lib/core/url-orders";
import { CONTENT_TYPES, USER_AGENT_CLASSES } from "@/lib/core/variations";
import { quotaShare } from "@/components/usage/quota-share";
import { BoostEstimateCard, estimateOf, useBoostEstimate } from "./boost-estimate";
import { type BoostBody, changedFields, check, EMPTY_FORM, estimateBlocker, estimateDraft, estimateReady, FORM_FIELDS, type FormState, fromBoost, ordersFor, toBody } from "./boost-form-model";
import { RequestProfileFields } from "./request-profile-fields";
import { ScheduleEditor } from "./schedule-editor";
import { siteBoostsQueryKey } from "./site-boosts";
import { SitemapChoices } from "./sitemap-choices";

/** A schedule's monthly cost over the quota, found when Save was clicked, and the body waiting for the owner's answer. */
type CostWarning = { calls: number; quota: number; body: Partial<BoostBody> };

const VERIFY_HINTS = {
  false: "Runs end after their calls.",
  true: "After each run, every cacheable miss is asked once more (a few seconds later) to count how many became hits. Not counted against the quota.",
  visitors:
    "After each run, a sample of its URLs (20 per region) is asked as Chrome desktop and Android, Safari iOS, Firefox and Googlebot visitors send them: the run page shows each one's hit ratio and why it missed. Not counted against the quota; these requests can fill the cache themselves.",
};

/**
 * Create (siteId) or edit (boost) a boost, every field of the API. The API's schema checks the form
 * before it is sent (boost-form-model.ts); what only the server knows (a 422) also shows by the fields.
 */
export function BoostForm({ siteId, boost }: { siteId: number; boost?: Boost }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [initial] = useState<FormState>(() => (boost ? fromBoost(boost) : EMPTY_FORM));
  const [state, setState] = useState<FormState>(initial);
  const [attempt, setAttempt] = useState(0);
  const [nothingChanged, setNothingChanged] = useState(false);
  const [costWarning, setCostWarning] = useState<CostWarning | null>(null);
  const [checkingCost, setCheckingCost] = useState(false);
  const body = toBody(state);
  const found = check(state);
  const errors = useFormErrors(body, FORM_FIELDS, () => found);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setNothingChanged(false);
    setCostWarning(null);
    setState((current) => ({ ...current, [key]: value }));
  };

  const save = useMutation({
    mutationFn: (body: Partial<BoostBody>) => (boost ? api<Boost>(`/boosts/${boost.id}`, { method: "PUT", body }) : api<Boost>(`/sites/${siteId}/boosts`, { method: "POST", body })),
    onSuccess: (saved) => {
      queryClient.setQueryData(["boost", saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: siteBoostsQueryKey(saved.site_id) });
      router.push(`/boosts/${saved.id}`);
    },
    onSettled: () => setAttempt((n) => n + 1),
  });
  /** Sends `changes`; a refusal is remembered against the whole form as it is now, so that each field's error goes once that field changes. */
  const send = (changes: Partial<BoostBody>) => save.mutate(changes, { onError: (error) => errors.refused(body, error) });

  // After a refused submit, bring the first field in error into view and focus.
  useEffect(() => {
    if (!attempt) return;
    const first = document.querySelector<HTMLElement>('form[data-boost-form] [aria-invalid="true"]');
    if (first instanceof HTMLFieldSetElement) first.querySelector<HTMLElement>("input")?.focus();
    else first?.focus();
  }, [attempt]);

  const estimateSiteId = boost?.site_id ?? siteId;
  const draft = estimateDraft(state, boost?.id);
  const ready = estimateReady(state, boost?.id);
  const estimate = useBoostEstimate(estimateSiteId, draft, ready);
  // A value that keeps the estimate away is marked at once, not only after a submit.
  const blocker = ready ? undefined : estimateBlocker(state, found);
  const problem = (field: string) => errors.error(field) ?? (blocker?.field === field ? blocker.sentence : undefined);

  /**
   * What the schedule would spend a month when that is more than the quota, from the estimate of the
   * form exactly as it is; null when it is not, when nothing saved changes the cost, or when the
   * estimate cannot be had (the save goes ahead: the quota still holds at each run).
   */
  const costOverQuota = async (body: Partial<BoostBody>): Promise<CostWarning | null> => {
    if (!draft.schedule) return null;
    if (boost && !Object.keys(body).some((field) => field in draft)) return null;
    setCheckingCost(true);
    try {
      const cost = await estimateOf(queryClient, estimateSiteId, draft).catch(() => null);
      if (!cost || cost.calls_per_month === null || cost.calls_per_month <= cost.monthly_quota) return null;
      return { calls: cost.calls_per_month, quota: cost.monthly_quota, body };
    } finally {
      setCheckingCost(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!errors.attempt()) {
      save.reset();
      setAttempt((n) => n + 1);
      return;
    }
    const changes = boost ? changedFields(initial, state) : body;
    if (boost && Object.keys(changes).length === 0) {
      setNothingChanged(true);
      return;
    }
    // A schedule costing more than the month's quota is saved only once the owner has said so.
    const warning = await costOverQuota(changes);
    if (warning) setCostWarning(warning);
    else send(changes);
  };

  const changeSchedule = () => {
    setCostWarning(null);
    const field = document.querySelector<HTMLInputElement>('form[data-boost-form] input[name="schedule"]');
    field?.scrollIntoView({ block: "center" });
    field?.focus();
  };

  const cancelHref = boost ? `/boosts/${boost.id}` : `/sites/${siteId}`;

  return (
    <form data-boost-form noValidate onSubmit={submit} className="space-y-6">
      {boost?.status === "paused" ? (
        <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          This boost is paused. Saving a change resumes it: its schedule fires again.
        </p>
      ) : null}
      <Card title="Boost">
        <Field label="Name" error={problem("name")}>
          {(props) => <TextInput {...props} name="name" value={state.name} onChange={(e) => set("name", e.target.value)} maxLength={200} autoComplete="off" required />}
        </Field>
      </Card>

      <Card title="URLs to warm">
        <div className="space-y-5">
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Source</legend>
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              {(
                [
                  ["sitemap", "Sitemaps"],
                  ["csv", "CSV file"],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="inline-flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="radio"
                    name="source_type"
                    value={value}
                    className="size-4 border-slate-300 text-brand-600 focus:ring-brand-500"
                    checked={state.source_type === value}
                    disabled={!!boost}
                    onChange={() => set("source_type", value)}
                  />
                  {label}
                </label>
              ))}
            </div>
            {boost ? <p className="text-xs text-slate-500">The source type is fixed once the boost exists.</p> : null}
          </fieldset>

          {state.source_type === "sitemap" ? (
            <SitemapChoices siteId={siteId} chosen={state.sitemap_ids} onChange={(ids) => set("sitemap_ids", ids)} error={problem("sitemap_ids")} chooseTheOnlyOne={!boost} />
          ) : (
            <Field label="CSV file URL" hint="A url, loc or link column, or the column holding URLs in the first 10 rows." error={problem("source_url")}>
              {(props) => (
                <TextInput
                  {...props}
                  type="url"
                  name="source_url"
                  inputMode="url"
                  placeholder="https://www.example.com/urls.csv"
                  value={state.source_url}
                  onChange={(e) => set("source_url", e.target.value)}
                />
              )}
            </Field>
          )}

          <Field label="URL root" hint="Only URLs whose path starts with this are warmed." error={problem("url_root")}>
            {(props) => <TextInput {...props} name="url_root" value={state.url_root} onChange={(e) => set("url_root", e.target.value)} className="font-mono sm:max-w-xs" />}
          </Field>

          <Field label="Excluded extensions" hint="Comma or space separated, e.g. jpg, png, css. Empty: none excluded." error={problem("exclude_ext")}>
            {(props) => <TextInput {...props} name="exclude_ext" value={state.exclude_ext} onChange={(e) => set("exclude_ext", e.target.value)} autoComplete="off" className="sm:max-w-md" />}
          </Field>

          <CheckboxGroup legend="Content types" hint="Recognised from the URL's extension (no extension counts as html). None checked: every type." error={problem("content_types")}>
            {CONTENT_TYPES.map((type) => (
              <Check key={type} label={type} name="content_types" checked={state.content_types.includes(type)} onChange={(on) => set("content_types", toggle(state.content_types, type, on))} />
            ))}
          </CheckboxGroup>

          <Field
            label="Order"
            hint="The order a run warms the URLs in; a call limit keeps the first ones (with traffic data, the most visited). URLs without a priority count as 0.5; those without a lastmod come last; most visited first reads the site's Traffic panel."
            error={problem("order")}
          >
            {(props) => (
              <select {...props} name="order" value={state.order} onChange={(e) => set("order", e.target.value as UrlOrder)} className={`${inputClass} sm:max-w-xs`}>
                {ordersFor(state.source_type).map((order) => (
                  <option key={order} value={order}>
                    {URL_ORDER_LABELS[order]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {state.source_type === "sitemap" ? (
            <div>
              <Check label="Only changed URLs" name="only_changed" checked={state.only_changed} onChange={(on) => set("only_changed", on)} />
              <p className="ml-6 text-xs text-slate-500">Warm only the URLs that are new, or whose lastmod changed, since the boost’s last completed run. The first run warms every URL.</p>
              {problem("only_changed") ? <p className="ml-6 text-xs font-medium text-red-600">{problem("only_changed")}</p> : null}
            </div>
          ) : null}
        </div>
      </Card>

      <Card title="How to call them">
        <div className="space-y-5">
          <RegionChoices value={state.region} onChange={(regions) => set("region", regions)} error={problem("region")} />

          <CheckboxGroup legend="User agents" hint="Each one is a call per URL. None checked: desktop." error={problem("variations.user_agents")}>
            {USER_AGENT_CLASSES.map((agent) => (
              <Check key={agent} label={agent} name="user_agents" checked={state.user_agents.includes(agent)} onChange={(on) => set("user_agents", toggle(state.user_agents, agent, on))} />
            ))}
          </CheckboxGroup>
          <BlockedAgentsWarning siteId={boost?.site_id ?? siteId} chosen={state.user_agents.length ? state.user_agents : ["desktop"]} />

          <Field
            label="Languages"
            hint="Accept-Language tags of the form ll-RR, comma or space separated, e.g. fr-FR, en-US. Each is a call per URL and user agent. Empty: none sent."
            error={problem("variations.languages") ?? problem("variations")}
          >
            {(props) => (
              <TextInput {...props} name="languages" value={state.languages} onChange={(e) => set("languages", e.target.value)} autoComplete="off" placeholder="fr-FR, en-US" className="sm:max-w-md" />
            )}
          </Field>

          <RequestProfileFields state={state.profile} onChange={(profile) => set("profile", profile)} problem={problem} />

          <Field label="Call limit" hint="Most calls one run makes. Empty: no limit." error={problem("call_limit")}>
            {(props) => (
              <TextInput
                {...props}
                name="call_limit"
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={state.call_limit}
                onChange={(e) => set("call_limit", e.target.value)}
                className="sm:max-w-[12rem]"
              />
            )}
          </Field>
        </div>
      </Card>

      <BoostEstimateCard estimate={estimate} ready={ready} blocker={blocker?.sentence} schedule={draft.schedule} keepWarm={state.keep_warm} />

      <Card title="Schedule">
        <ScheduleEditor value={state.schedule} onChange={(value) => set("schedule", value)} error={problem("schedule")} />
        <div className="mt-4 space-y-3 border-t border-slate-100 pt-4">
          <div>
            <Check label="Keep warm" name="keep_warm" checked={state.keep_warm} onChange={(on) => set("keep_warm", on)} />
            <p className="ml-6 text-xs text-slate-500">
              Warm each page again as its shared-cache lifetime ends, read from the CDN's answers, so that no visitor gets the miss. Beside the schedule, or instead of it: without one, every page is
              warmed once a day to learn its lifetime. The site must be validated.
            </p>
            {problem("keep_warm") ? <p className="ml-6 text-xs font-medium text-red-600">{problem("keep_warm")}</p> : null}
          </div>
          {state.keep_warm ? (
            <div className="grid gap-3 sm:grid-cols-2">
              <Field label="Monthly call budget (optional)" hint="Keep-warm calls a month at most; the first pages in the boost's order are kept warm first." error={problem("monthly_call_budget")}>
                {(props) => (
                  <TextInput
                    {...props}
                    name="monthly_call_budget"
                    inputMode="numeric"
                    value={state.monthly_call_budget}
                    onChange={(e) => set("monthly_call_budget", e.target.value)}
                    placeholder="No budget"
                  />
                )}
              </Field>
              <Field
                label="Lead (share of the lifetime)"
                hint="0 re-warms just after a page expires. Only for a CDN that refreshes ahead of expiry on a request (Akamai prefresh, Varnish grace): e.g. 0.1."
                error={problem("keep_warm_lead")}
              >
                {(props) => <TextInput {...props} name="keep_warm_lead" inputMode="decimal" value={state.keep_warm_lead} onChange={(e) => set("keep_warm_lead", e.target.value)} />}
              </Field>
            </div>
          ) : null}
        </div>
      </Card>

      <Card title="Options">
        <div className="space-y-3">
          <div>
            <Check label="Ignore errors" name="ignore_errors" checked={state.ignore_errors} onChange={(on) => set("ignore_errors", on)} />
            <p className="ml-6 text-xs text-slate-500">Off: the boost pauses itself when at least half of its recent calls fail.</p>
            {problem("ignore_errors") ? <p className="ml-6 text-xs font-medium text-red-600">{problem("ignore_errors")}</p> : null}
          </div>
          <Field label="Check after each run" hint={VERIFY_HINTS[String(state.verify) as keyof typeof VERIFY_HINTS]} error={problem("verify")}>
            {(props) => (
              <select
                {...props}
                name="verify"
                value={String(state.verify)}
                onChange={(e) => set("verify", e.target.value === "visitors" ? "visitors" : e.target.value === "true")}
                className={`${inputClass} sm:max-w-xs`}
              >
                <option value="false">No check</option>
                <option value="true">Ask the misses again</option>
                <option value="visitors">Visitor check</option>
              </select>
            )}
          </Field>
          <div>
            <Check label="E-mail report" name="report_email_enabled" checked={state.report_email_enabled} onChange={(on) => set("report_email_enabled", on)} />
            <p className="ml-6 text-xs text-slate-500">An e-mail with the run's figures when each run ends.</p>
            {problem("report_email_enabled") ? <p className="ml-6 text-xs font-medium text-red-600">{problem("report_email_enabled")}</p> : null}
          </div>
        </div>
      </Card>

      <div className="space-y-3">
        <FormProblems errors={errors} />
        {nothingChanged ? (
          <p role="status" className="text-sm text-slate-600">
            Nothing changed: there is nothing to save.
          </p>
        ) : null}
        {costWarning ? (
          <div role="alert" data-testid="boost-cost-warning" className="rounded-md border border-red-200 bg-red-50 px-3 py-3 text-sm text-red-800">
            <p className="font-medium">
              This schedule would spend about {quotaShare(costWarning.calls, costWarning.quota).words} your monthly quota of {costWarning.quota.toLocaleString("en")} calls (≈{" "}
              {costWarning.calls.toLocaleString("en")} calls a month).
            </p>
            <p className="mt-1">Once the month’s quota is spent, runs needing more than what is left fail until the next month (UTC), this boost’s and the others’.</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button variant="danger" busy={save.isPending} onClick={() => send(costWarning.body)}>
                Save anyway
              </Button>
              <Button variant="secondary" onClick={changeSchedule}>
                Change schedule
              </Button>
              <Link href={cancelHref} className={buttonClass("ghost")}>
                Cancel
              </Link>
            </div>
          </div>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button type="submit" busy={save.isPending || checkingCost}>
              {boost ? "Save changes" : "Create boost"}
            </Button>
            <Link href={cancelHref} className={buttonClass("ghost")}>
              Cancel
            </Link>
          </div>
        )}
      </div>
    </form>
  );
}
