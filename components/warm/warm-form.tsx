"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { useRouter } from "next/navigation";
import { useState } from "react";
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
import { parseSiteUrl } from "@/lib/sites/domain-name";
import { RegionChoices } from "@/components/runs/region-choices";
import { BlockedAgentsWarning } from "@/components/sites/blocked-verdicts";
import { RequestProfileFields } from "@/components/boosts/request-profile-fields";
import { EMPTY_PROFILE, PROFILE_FIELDS, type ProfileState, profileBody, profileProblems } from "@/components/boosts/request-profile-model";

/** Every http(s) URL in pasted text or an uploaded file (one a line, or CSV cells). */
function extractUrls(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s,;"'<>]+/gi) ?? [];
  return [...new Set(found)];
}

/**
 * The found URLs a warm of the site takes, and those it would refuse (another domain, credentials in
 * them): only the first are counted and sent, and the form says how many it left out and why.
 */
function siteUrls(found: readonly string[], domain: string): { urls: string[]; refused: { count: number; first: string | null } } {
  const urls: string[] = [];
  let first: string | null = null;
  let count = 0;
  for (const url of found) {
    const parsed = parseSiteUrl(url, domain);
    if ("url" in parsed) urls.push(url);
    else {
      count++;
      first ??= parsed.problem;
    }
  }
  return { urls, refused: { count, first } };
}

/** The API names of the fields the form shows. */
const WARM_FIELDS = ["urls", "region", "variations", "variations.user_agents", "variations.languages", ...PROFILE_FIELDS];

const n = (count: number) => count.toLocaleString("en");

export function WarmForm({ site }: { site: Site }) {
  const router = useRouter();
  const [text, setText] = useState("");
  const [fileNote, setFileNote] = useState<string | null>(null);
  const [regions, setRegions] = useState<string[]>(["fr"]);
  const [userAgents, setUserAgents] = useState<string[]>([]);
  const [languages, setLanguages] = useState("");
  const [profile, setProfile] = useState<ProfileState>(EMPTY_PROFILE);
  const { urls, refused } = siteUrls(extractUrls(text), site.domain);
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
                placeholder={`https://${site.domain}/\nhttps://${site.domain}/products`}
              />
            )}
          </Field>
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
                    setText((current) => `${current}${current && !current.endsWith("\n") ? "\n" : ""}${found.join("\n")}`);
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
          <Button type="submit" busy={warm.isPending} disabled={!urls.length || !regions.length || tooMany !== undefined || Object.keys(unreadable).length > 0}>
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
