"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { useRouter } from "next/navigation";
import { startTransition, useDeferredValue, useMemo, useRef, useState } from "react";
import { countCalls } from "@/lib/runs/calls";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import type { Site } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote, PageHeader } from "@/components/ui/card";
import { Check, CheckboxGroup, toggle } from "@/components/ui/choices";
import { Field, inputClass, TextInput } from "@/components/ui/field";
import { USER_AGENT_CLASSES } from "@/lib/core/variations";
import { fieldProblems } from "@/lib/core/field-errors";
import { MAX_WARM_URLS, warmBody } from "@/lib/runs/warm-schemas";
import { RegionChoices } from "@/components/runs/region-choices";
import { BlockedAgentsWarning } from "@/components/sites/blocked-verdicts";
import { RequestProfileFields } from "@/components/boosts/request-profile-fields";
import { extractUrls, siteUrlSorter } from "./site-urls";
import { EMPTY_PROFILE, PROFILE_FIELDS, type ProfileState, profileBody, profileProblems } from "@/components/boosts/request-profile-model";

/**
 * From this many lines, a paste is kept beside the box rather than in it, as an uploaded file's URLs
 * always are: a textarea that takes
 * thousands of lines holds Chromium's main thread for a few hundred milliseconds at each paste
 * (e2e/warm-paste.spec.ts measures it), and the owner reads a count, not 6,000 lines.
 */
const LIST_FROM_LINES = 100;
/** The URLs of a list shown on screen; the count says the rest. */
const PREVIEW_URLS = 3;

/** A long paste or an uploaded file, kept as the URLs found in it; `file` names the file. */
type UrlList = { id: number; urls: string[]; file: string | null };

/** The API names of the fields the form shows. */
const WARM_FIELDS = ["urls", "region", "variations", "variations.user_agents", "variations.languages", ...PROFILE_FIELDS];

const n = (count: number) => count.toLocaleString("en");

export function WarmForm({ site }: { site: Site }) {
  const router = useRouter();
  const [text, setText] = useState("");
  const [lists, setLists] = useState<UrlList[]>([]);
  const nextListId = useRef(0);
  const addList = (urls: string[], file: string | null) => {
    const list = { id: nextListId.current++, urls, file };
    // Counted in a render of its own, once the paste or the file's reading has been let go.
    startTransition(() => setLists((current) => [...current, list]));
  };
  const [fileNote, setFileNote] = useState<string | null>(null);
  const [regions, setRegions] = useState<string[]>(["fr"]);
  const [userAgents, setUserAgents] = useState<string[]>([]);
  const [languages, setLanguages] = useState("");
  const [profile, setProfile] = useState<ProfileState>(EMPTY_PROFILE);
  // What is typed is counted in a render of its own once the box has taken the key, and each URL is
  // checked once: a keystroke after a paste of thousands checks the URL being typed, not the list.
  const sortUrls = useMemo(() => siteUrlSorter(site.domain), [site.domain]);
  const typed = useDeferredValue(text);
  const { urls, refused } = useMemo(() => sortUrls([extractUrls(typed), ...lists.map((list) => list.urls)]), [sortUrls, typed, lists]);
  const counting = typed !== text;
  const languageList = languages.split(/[\s,]+/).filter(Boolean);
  const extra = profileBody(profile);
  const variations = { ...(userAgents.length ? { user_agents: userAgents } : {}), ...(languageList.length ? { languages: languageList } : {}), ...extra.variations };
  const calls = countCalls(urls.length, { regions, variations, requestProfile: extra.request_profile });
  const unreadable = profileProblems(profile);
  const body = { urls, region: regions, variations: Object.keys(variations).length ? variations : undefined, request_profile: extra.request_profile ?? undefined };
  const errors = useFormErrors(body, WARM_FIELDS, () => {
    const parsed = warmBody.safeParse(body);
    return { ...(parsed.error ? fieldProblems(parsed.error, body, WARM_FIELDS) : {}), ...unreadable };
  });
  // Counted as the owner pastes, not only once refused: the button says what a warm would cost.
  const tooMany = urls.length > MAX_WARM_URLS ? `${n(urls.length)} URLs: at most ${n(MAX_WARM_URLS)} per warm.` : undefined;

  const warm = useMutation({
    mutationFn: (sent: typeof body) => api<{ run_id: number }>(`/sites/${site.id}/warm`, { method: "POST", body: sent }),
    onSuccess: ({ run_id }) => router.push(`/runs/${run_id}`),
    onError: (error, sent) => errors.refused(sent, error),
  });

  return (
    <div className="space-y-6">
      <Breadcrumb trail={[{ href: `/sites/${site.id}`, label: site.domain }]} current="Warm now" />
      <PageHeader title={`Warm ${site.domain} now`} subtitle="Up to 5,000 URLs of this site, warmed once per region, user agent, language, cookie set and encoding." />
      {site.validated ? null : <ErrorNote error="This site is not validated yet: prove you own it on the site page before warming it on demand." />}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (errors.attempt()) warm.mutate(body);
        }}
        className="space-y-6"
      >
        <Card title="URLs">
          <Field
            label="URLs to warm"
            hint={`Paste one URL a line (or any text with URLs in it): ${n(urls.length)} of this site found, ${n(MAX_WARM_URLS)} at most.${refused.count ? ` ${n(refused.count)} left out: ${refused.first}${refused.count > 1 ? ", and others" : ""}.` : ""}`}
            error={tooMany ?? errors.error("urls")}
          >
            {(a) => (
              <textarea
                {...a}
                name="urls"
                rows={8}
                // Thousands of URLs are no words: spell-checking them slows the page down.
                spellCheck={false}
                className={`${inputClass} font-mono`}
                value={text}
                onChange={(e) => setText(e.target.value)}
                onPaste={(event) => {
                  const pasted = event.clipboardData.getData("text/plain");
                  if (pasted.split("\n", LIST_FROM_LINES).length < LIST_FROM_LINES) return;
                  const found = extractUrls(pasted);
                  if (!found.length) return;
                  event.preventDefault();
                  addList(found, null);
                }}
                placeholder={`https://${site.domain}/\nhttps://${site.domain}/products`}
              />
            )}
          </Field>
          {lists.length ? (
            <ul aria-label="Lists of URLs" className="mt-3 space-y-2">
              {lists.map((list) => (
                <li key={list.id} className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="font-medium text-slate-800">
                      {n(list.urls.length)} {list.urls.length === 1 ? "URL" : "URLs"} {list.file ? `from ${list.file}` : "pasted"}
                    </span>
                    <Button variant="secondary" onClick={() => setLists((current) => current.filter((other) => other.id !== list.id))}>
                      Remove this list
                    </Button>
                  </div>
                  <ul className="mt-2 space-y-0.5 font-mono text-xs text-slate-600">
                    {list.urls.slice(0, PREVIEW_URLS).map((url) => (
                      <li key={url} className="truncate">
                        {url}
                      </li>
                    ))}
                  </ul>
                  {list.urls.length > PREVIEW_URLS ? <p className="mt-1 text-xs text-slate-500">and {n(list.urls.length - PREVIEW_URLS)} more</p> : null}
                </li>
              ))}
            </ul>
          ) : null}
          <div className="mt-3">
            <Field label="Or upload a file" hint={fileNote ?? "A text or CSV file: every http(s) URL in it is added."}>
              {(a) => (
                <input
                  {...a}
                  type="file"
                  accept=".txt,.csv,text/plain,text/csv"
                  className="block w-full text-sm text-slate-600 file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 file:shadow-sm hover:file:bg-slate-50"
                  onChange={async (event) => {
                    const file = event.target.files?.[0];
                    if (!file) return;
                    const found = extractUrls(await file.text());
                    if (found.length) addList(found, file.name);
                    setFileNote(found.length ? `${n(found.length)} ${found.length === 1 ? "URL" : "URLs"} added from ${file.name}.` : `No http(s) URL found in ${file.name}.`);
                  }}
                />
              )}
            </Field>
          </div>
        </Card>
        <Card title="Where and how">
          <div className="space-y-4">
            <RegionChoices value={regions} onChange={setRegions} error={errors.error("region")} />
            <CheckboxGroup legend="User agents" hint="Each one is a call per URL. None checked: desktop." error={errors.error("variations.user_agents")}>
              {USER_AGENT_CLASSES.map((ua) => (
                <Check key={ua} label={ua} name="user_agents" checked={userAgents.includes(ua)} onChange={(on) => setUserAgents(toggle(userAgents, ua, on))} />
              ))}
            </CheckboxGroup>
            <BlockedAgentsWarning siteId={site.id} chosen={userAgents.length ? userAgents : ["desktop"]} />
          </div>
          <div className="mt-4 max-w-md">
            <Field
              label="Languages"
              hint="Accept-Language tags such as fr-FR en-US, separated by spaces or commas; none: no header."
              error={errors.error("variations.languages") ?? errors.error("variations")}
            >
              {(a) => <TextInput {...a} name="languages" value={languages} onChange={(e) => setLanguages(e.target.value)} placeholder="fr-FR, en-US" />}
            </Field>
          </div>
        </Card>
        <Card title="What every call sends">
          <RequestProfileFields state={profile} onChange={setProfile} problem={errors.error} />
        </Card>
        <div className="flex flex-wrap items-center gap-4">
          <Button type="submit" busy={warm.isPending} disabled={counting || !urls.length || !regions.length || tooMany !== undefined || Object.keys(unreadable).length > 0}>
            Warm {n(calls)} {calls === 1 ? "call" : "calls"}
          </Button>
          <Link href={`/sites/${site.id}`} className="text-sm font-medium text-slate-700 hover:underline">
            Back to {site.domain}
          </Link>
          <FormProblems errors={errors} />
        </div>
      </form>
    </div>
  );
}
