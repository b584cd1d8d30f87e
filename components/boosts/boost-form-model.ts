import type { Boost } from "@/components/dashboard/types";
import { boostDraftBody, createSiteBoostBody, type SOURCE_TYPES } from "@/lib/core/boost-requests";
import { fieldProblems, type Problems } from "@/lib/core/field-errors";
import { REGIONS } from "@/lib/core/regions";
import { URL_ORDERS, type UrlOrder } from "@/lib/core/url-orders";
import { CONTENT_TYPES, USER_AGENT_CLASSES, type VerifyMode } from "@/lib/core/variations";
import { EMPTY_PROFILE, PROFILE_FIELDS, type ProfileState, profileBody, profileProblems, profileStateOf } from "./request-profile-model";

/*
 * The boost form without its rendering: what it holds, the body it sends, and what is wrong with it.
 * What is wrong is what the API would refuse: the body is parsed with the API's own schema (from
 * lib/core, so no server code reaches the browser), and the API's sentences are shown.
 */

type SourceType = (typeof SOURCE_TYPES)[number];

/** What the form holds: text as typed, lists as checked. */
export type FormState = {
  name: string;
  source_type: SourceType;
  sitemap_ids: number[];
  source_url: string;
  region: string[];
  user_agents: string[];
  languages: string;
  url_root: string;
  exclude_ext: string;
  content_types: string[];
  call_limit: string;
  order: UrlOrder;
  only_changed: boolean;
  ignore_errors: boolean;
  verify: VerifyMode;
  report_email_enabled: boolean;
  schedule: string;
  keep_warm: boolean;
  /** A share of the lifetime, as typed (0 to 0.9). */
  keep_warm_lead: string;
  monthly_call_budget: string;
  /** The request profile, cookie sets and encodings. */
  profile: ProfileState;
};

export const EMPTY_FORM: FormState = {
  name: "",
  source_type: "sitemap",
  sitemap_ids: [],
  source_url: "",
  region: ["fr"],
  user_agents: [],
  languages: "",
  url_root: "/",
  exclude_ext: "",
  content_types: [],
  call_limit: "",
  order: "sitemap",
  only_changed: false,
  ignore_errors: false,
  verify: false,
  report_email_enabled: true,
  schedule: "",
  keep_warm: false,
  keep_warm_lead: "0",
  monthly_call_budget: "",
  profile: EMPTY_PROFILE,
};

export function fromBoost(boost: Boost): FormState {
  return {
    name: boost.name,
    source_type: boost.source_type,
    sitemap_ids: boost.sitemap_ids,
    source_url: boost.source_url ?? "",
    region: boost.region,
    user_agents: boost.variations?.user_agents ?? [],
    languages: (boost.variations?.languages ?? []).join(", "),
    url_root: boost.url_root,
    exclude_ext: (boost.exclude_ext ?? []).join(", "),
    content_types: boost.content_types ?? [],
    call_limit: boost.call_limit === null ? "" : String(boost.call_limit),
    order: boost.order,
    only_changed: boost.only_changed,
    ignore_errors: boost.ignore_errors,
    verify: boost.verify,
    report_email_enabled: boost.report_email_enabled,
    schedule: boost.schedule ?? "",
    keep_warm: boost.keep_warm,
    keep_warm_lead: String(boost.keep_warm_lead),
    monthly_call_budget: boost.monthly_call_budget === null ? "" : String(boost.monthly_call_budget),
    profile: profileStateOf(boost.request_profile, boost.variations),
  };
}

const words = (text: string) => text.split(/[\s,;]+/).filter(Boolean);
/** Checkboxes give their values in the order they were clicked: the order on screen is the one that means nothing changed. */
const inOrder = <T extends string>(all: readonly T[], chosen: string[]) => all.filter((value) => chosen.includes(value));

/**
 * The API body the form stands for, every field. Text is only split into lists here: tags,
 * extensions and cron spacing are normalised by the API's schema, which is the one to judge them.
 */
export function toBody(state: FormState) {
  const userAgents = inOrder(USER_AGENT_CLASSES, state.user_agents);
  const languages = words(state.languages);
  const extensions = words(state.exclude_ext);
  const contentTypes = inOrder(CONTENT_TYPES, state.content_types);
  const profile = profileBody(state.profile);
  const variations = { ...(userAgents.length ? { user_agents: userAgents } : {}), ...(languages.length ? { languages } : {}), ...profile.variations };
  return {
    name: state.name,
    source_type: state.source_type,
    ...(state.source_type === "sitemap" ? { sitemap_ids: [...state.sitemap_ids].sort((a, b) => a - b) } : { source_url: state.source_url.trim() }),
    // A CSV file gives no priority nor lastmod: its boosts take its own order or traffic's (undefined is left out of the JSON).
    order: ordersFor(state.source_type).includes(state.order) ? state.order : undefined,
    only_changed: state.source_type === "sitemap" ? state.only_changed : undefined,
    region: inOrder(
      REGIONS.map((r) => r.code),
      state.region,
    ),
    variations: Object.keys(variations).length ? variations : null,
    request_profile: profile.request_profile,
    url_root: state.url_root.trim() || "/",
    exclude_ext: extensions.length ? extensions : null,
    content_types: contentTypes.length ? contentTypes : null,
    call_limit: state.call_limit.trim() === "" ? null : Number(state.call_limit),
    ignore_errors: state.ignore_errors,
    verify: state.verify,
    report_email_enabled: state.report_email_enabled,
    schedule: state.schedule.trim() || null,
    keep_warm: state.keep_warm,
    keep_warm_lead: state.keep_warm_lead.trim() === "" ? 0 : Number(state.keep_warm_lead),
    monthly_call_budget: state.monthly_call_budget.trim() === "" ? null : Number(state.monthly_call_budget),
  };
}

export type BoostBody = ReturnType<typeof toBody>;

/** The part of the body the estimate reads: what decides the calls (the order decides none), the schedule (what they cost a month), and the boost being edited (only_changed compares with its last run). */
export function estimateDraft(state: FormState, boostId: number | undefined) {
  const { name: _name, ignore_errors: _ignore, report_email_enabled: _report, order: _order, keep_warm_lead: _lead, request_profile, ...body } = toBody(state);
  // Of the profile, only the custom user agents add calls: the password is not sent with every keystroke.
  const draft = { ...body, request_profile: request_profile?.custom_user_agents ? { custom_user_agents: request_profile.custom_user_agents } : null };
  return boostId === undefined ? draft : { ...draft, boost_id: boostId };
}

/** The estimate is asked for once the estimate's own schema takes the draft; unreadable cookie-set lines would leave sets out of the count unseen. */
export function estimateReady(state: FormState, boostId: number | undefined): boolean {
  return !profileProblems(state.profile)["variations.cookie_sets"] && boostDraftBody.safeParse(estimateDraft(state, boostId)).success;
}

/** The fields the form shows a problem under, by the API's names: a problem deeper down (`request_profile.headers.Cookie`) shows under the deepest of them. */
export const FORM_FIELDS = [
  "name",
  "sitemap_ids",
  "source_url",
  "url_root",
  "exclude_ext",
  "content_types",
  "order",
  "only_changed",
  "region",
  "variations",
  "variations.user_agents",
  "variations.languages",
  ...PROFILE_FIELDS,
  "call_limit",
  "schedule",
  "keep_warm",
  "keep_warm_lead",
  "monthly_call_budget",
  "ignore_errors",
  "verify",
  "report_email_enabled",
];

/**
 * What the API would refuse in the body the form would send, field by field (the first problem of
 * each), plus the profile's lines that cannot be read at all. Empty: the form can be sent.
 */
export function check(state: FormState): Problems {
  const body = toBody(state);
  const parsed = createSiteBoostBody.safeParse(body);
  return { ...(parsed.error ? fieldProblems(parsed.error, body, FORM_FIELDS) : {}), ...profileProblems(state.profile) };
}

/** The body as the API would store it, where the API's schema takes it: `.JPG` and `jpg`, `fr-fr` and `fr-FR` are one value. */
function stored(body: BoostBody): Record<string, unknown> {
  return createSiteBoostBody.safeParse(body).data ?? body;
}

/** Only the fields that differ from the boost as loaded (PUT changes only what it is given), compared as the API would store them. */
export function changedFields(initial: FormState, current: FormState): Partial<BoostBody> {
  const body = toBody(current);
  const before = stored(toBody(initial));
  const after = stored(body);
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === "source_type") continue; // fixed once the boost exists
    if (JSON.stringify(after[key]) !== JSON.stringify(before[key])) changes[key] = value;
  }
  return changes as Partial<BoostBody>;
}

/** Fields that are empty until the owner chooses: the estimate waits for them without calling them wrong. */
function notChosenYet(state: FormState, field: string): boolean {
  if (field === "sitemap_ids") return state.sitemap_ids.length === 0;
  if (field === "source_url") return state.source_url.trim() === "";
  if (field === "region") return state.region.length === 0;
  return false;
}

/**
 * Why the estimate cannot be had when it is a value typed wrong (a language tag, a cookie set line),
 * rather than a choice not made yet: the first such field and its sentence, so that the estimate says
 * which value to fix instead of going blank.
 */
export function estimateBlocker(state: FormState, problems: Problems): { field: string; sentence: string } | undefined {
  const draft = estimateDraft(state, undefined);
  for (const [field, sentence] of Object.entries(problems)) {
    const top = field.split(/[.[]/)[0]!;
    if (top in draft && !notChosenYet(state, field)) return { field, sentence };
  }
  return undefined;
}

const CSV_ORDERS: readonly UrlOrder[] = ["sitemap", "traffic"];

/** The orders a boost of this source can be warmed in: a CSV file gives no priority nor lastmod. */
export function ordersFor(sourceType: SourceType): readonly UrlOrder[] {
  return sourceType === "sitemap" ? URL_ORDERS : CSV_ORDERS;
}
