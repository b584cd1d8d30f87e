import { describe, expect, it } from "vitest";
import type { Boost } from "@/components/dashboard/types";
import { createSiteBoost, updateSiteBoost } from "@/lib/api/operations/boosts";
import { fieldErrors } from "@/lib/core/field-errors";
import { changedFields, check, EMPTY_FORM, estimateBlocker, estimateReady, type FormState, fromBoost, toBody } from "./boost-form-model";

/** A draft the API takes: the cases below each spoil one field of it. */
const valid: FormState = {
  ...EMPTY_FORM,
  name: "Nightly products",
  sitemap_ids: [3, 1],
  region: ["de", "fr"],
  user_agents: ["desktop", "mobile"],
  languages: "fr-FR, en-us",
  exclude_ext: "jpg, .PNG",
  content_types: ["html"],
  call_limit: "500",
  schedule: "0 3 * * *",
  profile: { ...EMPTY_FORM.profile, headers: "X-Preview: 0", cookieSets: "USD: currency=USD\nEUR: currency=EUR" },
};

/** What the API answers in its 422 details for the body the form would send, through the operation's own body schema. */
function apiRefuses(state: FormState) {
  const parsed = createSiteBoost.body!.safeParse(toBody(state));
  return parsed.success ? [] : fieldErrors(parsed.error);
}

const elevenCookieSets = Array.from({ length: 11 }, (_, i) => `SET${i}: n=${i}`).join("\n");

describe("the boost form refuses what the API refuses, in the API's words", () => {
  it("takes a valid draft, as the API does", () => {
    expect(apiRefuses(valid)).toEqual([]);
    expect(check(valid)).toEqual({});
    expect(estimateReady(valid, undefined)).toBe(true);
  });

  it.each<[string, Partial<FormState>, string, string, string]>([
    ["a bad language tag", { languages: "fr-FR, xx" }, "variations.languages", "variations.languages[1]", "“xx” must be a language tag of the form ll-RR, e.g. fr-FR."],
    ["a bad extension", { exclude_ext: "jpg gif!" }, "exclude_ext", "exclude_ext[1]", "“gif!” must be a file extension such as jpg."],
    ["a URL root without a leading slash", { url_root: "products" }, "url_root", "url_root", "Must start with /."],
    ["too many cookie sets", { profile: { ...valid.profile, cookieSets: elevenCookieSets } }, "variations.cookie_sets", "variations.cookie_sets", "Must list at most 10 cookie sets."],
    [
      "a refused header",
      { profile: { ...valid.profile, headers: "Cookie: a=1" } },
      "request_profile.headers",
      "request_profile.headers.Cookie",
      "Cookie: may not be set here: use `cookies` (or `variations.cookie_sets`) instead.",
    ],
    ["a call limit of 0", { call_limit: "0" }, "call_limit", "call_limit", "Must be greater than 0."],
    ["a schedule of four fields", { schedule: "0 3 * *" }, "schedule", "schedule", 'Must be a 5-field cron expression (minute hour day-of-month month day-of-week), e.g. "0 3 * * *".'],
    ["no sitemap", { sitemap_ids: [] }, "sitemap_ids", "sitemap_ids", "Must list at least one sitemap."],
  ])("%s", (_, change, formField, apiField, shown) => {
    const state = { ...valid, ...change };
    const refused = apiRefuses(state);
    expect(refused.map((problem) => problem.field)).toEqual([apiField]);
    expect(Object.keys(check(state))).toEqual([formField]);
    expect(check(state)[formField]).toBe(shown);
    expect(shown.toLowerCase()).toContain(refused[0]!.message.toLowerCase());
  });

  it("asks no estimate of a draft the estimate's schema refuses", () => {
    expect(estimateReady({ ...valid, languages: "xx" }, undefined)).toBe(false);
    expect(estimateReady({ ...valid, sitemap_ids: [] }, undefined)).toBe(false);
    // The name decides no call, and a schedule still being typed only leaves out the monthly cost: the estimate does not wait for them.
    expect(estimateReady({ ...valid, name: "", schedule: "nonsense" }, undefined)).toBe(true);
  });

  it("says which typed value keeps the estimate away, but not a choice still to make", () => {
    const wrongLanguage = { ...valid, languages: "fr-FR, xx" };
    expect(estimateBlocker(wrongLanguage, check(wrongLanguage))).toEqual({ field: "variations.languages", sentence: "“xx” must be a language tag of the form ll-RR, e.g. fr-FR." });
    const noSitemap = { ...valid, sitemap_ids: [] };
    expect(estimateBlocker(noSitemap, check(noSitemap))).toBeUndefined();
    // The name decides no call: it never holds the estimate.
    const noName = { ...valid, name: "" };
    expect(estimateBlocker(noName, check(noName))).toBeUndefined();
  });

  it("names a cookie set's problem by the set's name", () => {
    expect(check({ ...valid, profile: { ...valid.profile, cookieSets: "USD: currency=USD\nUSD: currency=EUR" } })).toEqual({
      "variations.cookie_sets": 'USD.name: is used twice: "USD".',
    });
  });
});

const boost: Boost = {
  id: 7,
  site_id: 2,
  name: "Nightly products",
  status: "active",
  source_type: "sitemap",
  region: ["fr", "de"],
  sitemap_ids: [1, 3],
  source_url: null,
  url_root: "/",
  exclude_ext: ["jpg", "png"],
  variations: { user_agents: ["mobile", "desktop"], languages: ["fr-FR", "en-US"] },
  request_profile: { headers: { "x-preview": "0" } },
  content_types: ["html"],
  ignore_errors: false,
  verify: false,
  report_email_enabled: true,
  schedule: "0 3 * * *",
  next_run_at: null,
  call_limit: 500,
  url_order: "sitemap",
  order: "sitemap",
  only_changed: false,
  keep_warm: false,
  keep_warm_lead: 0,
  monthly_call_budget: null,
  unvalidated_limits: null,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};

describe("an edit sends what changed, as the API would store it", () => {
  it("sees no change where the API would store the same value", () => {
    const initial = fromBoost(boost);
    const retyped = { ...initial, exclude_ext: ".JPG png", languages: "fr-fr en-US", schedule: " 0  3 * * * ", profile: { ...initial.profile, headers: "X-Preview: 0" } };
    expect(changedFields(initial, retyped)).toEqual({});
  });

  it("sends the changed fields only, in a body the update takes", () => {
    const initial = fromBoost(boost);
    const changes = changedFields(initial, { ...initial, call_limit: "30", schedule: "" });
    expect(changes).toEqual({ call_limit: 30, schedule: null });
    expect(updateSiteBoost.body!.safeParse(changes).success).toBe(true);
  });
});
