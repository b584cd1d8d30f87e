import { plural } from "@/lib/core/format";
import { blockedSentence } from "@/lib/core/block-vendors";
import { NOT_CACHED_ADVICE, type NotCachedReason } from "@/lib/core/not-cached";
import { BROWSER_REQUESTS, isUserAgentClass } from "@/lib/warm/user-agents";
import { negotiatedEncoding, VISITORS } from "@/lib/warm/visitors";
import type { VisitorProfile } from "@/lib/core/visitor-profiles";
import { letPreheatThrough, mainVendor } from "./blocked";
import { agentsOf, variantOfKey } from "./calls";
import type { Advice, VisitorFigures } from "@/lib/core/run-figures";

/** What a run was asked to send: its variations, with the cookies of its request profile and cookie sets. */
export type WarmedPlan = {
  variations:
    | {
        user_agents?: readonly string[] | null;
        languages?: readonly string[] | null;
        cookie_sets?: readonly { name: string; cookies?: Readonly<Record<string, string>> }[] | null;
        encodings?: readonly string[] | null;
      }
    | null
    | undefined;
  requestProfile?: { custom_user_agents?: readonly string[] | null; cookies?: Readonly<Record<string, string>> | null } | null;
};

/** A visitor's requests of a visitor check, as its batches counted them. */
export type VisitorCounts = { requests: number; hits: number; failed: number; notCached: Record<string, number>; blockedBy: Record<string, number> };

/** A header or cookie counts as the site's habit when at least this share of the answers carried it (and MIN_ANSWERS were read). */
const MOST = 0.5;
const NEARLY_ALL = 0.8;
const MIN_ANSWERS = 3;
/** Below this share of hits, a visitor is reported as missing. */
const VISITOR_HIT_TARGET = 0.95;

/**
 * Cookies set by load balancers, bot protections and session frameworks: never what a cache keys
 * on (a session cookie makes a page personal, not a variant), so never advised as a cookie set.
 */
const INFRASTRUCTURE_COOKIES =
  /^(__cf_bm|_cfuvid|cf_clearance|__cflb|__cfruid|awsalb\w*|ak_bmsc|bm_\w+|_abck|datadome|incap_ses_\w*|visid_incap_\w*|nlbi_\w*|_px\w*|arraffinity\w*|bigipserver\w*|serverid|jsessionid|phpsessid|asp\.net_sessionid|laravel_session|xsrf-token|csrftoken|__host-\w+|__secure-\w+)$/i;

/** Reasons that say the cache did not, or may not, store the answer (lib/warm/not-cached.ts), whatever any other visitor got. */
const UNCACHEABLE = new Set<string>(["redirect", "no_store", "private", "authorization", "status", "no_cache", "cdn_bypass"] satisfies NotCachedReason[]);

const LANGUAGE_EXAMPLES = ["en-US", "fr-FR", "de-DE", "es-ES"];

function warmedClasses(plan: WarmedPlan): string[] {
  return agentsOf(plan).filter(isUserAgentClass);
}

/** The encodings a class's calls asked for: the run's encoding variants, or the class's browser's own. */
function warmedEncodings(plan: WarmedPlan, userAgentClass: keyof typeof BROWSER_REQUESTS): Set<string> {
  const encodings = plan.variations?.encodings;
  if (encodings?.length) return new Set(encodings.map((encoding) => negotiatedEncoding(encoding)));
  return new Set([negotiatedEncoding(BROWSER_REQUESTS[userAgentClass].headers["accept-encoding"])]);
}

function mostCommon(counts: Record<string, number>): [string, number] | null {
  return Object.entries(counts).reduce<[string, number] | null>((best, entry) => (entry[1] > (best?.[1] ?? 0) ? entry : best), null);
}

/**
 * Why a standard visitor missed after the warm, the likeliest first: blocked or failed; a CDN that
 * did not cache its answers; a device class, an encoding or a User-Agent no warming call sent.
 * null when it hit on (nearly) every request.
 */
export function visitorCause(profile: VisitorProfile, counts: VisitorCounts, plan: WarmedPlan, varyOn: ReadonlySet<string>): string | null {
  const misses = counts.requests - counts.hits;
  if (!counts.requests || counts.hits / counts.requests >= VISITOR_HIT_TARGET) return null;
  const visitor = VISITORS[profile];
  const vendor = mainVendor(counts.blockedBy);
  const blocked = Object.values(counts.blockedBy).reduce((n, c) => n + c, 0);
  if (vendor && blocked * 2 >= misses) return `${blockedSentence(vendor)} on ${blocked} of them, though they carried the Preheat-Verification header: ${letPreheatThrough()}`;
  if (counts.failed * 2 >= misses) return `the site answered ${counts.failed} of them with an error or not at all, which no warm can fill`;
  // A cookie set or a Vary on a miss only suggests the cache will not keep it: the reasons that say so outright.
  const [reason, times] = mostCommon(counts.notCached) ?? ["miss", 0];
  if (UNCACHEABLE.has(reason) && times * 2 >= misses)
    return `${times} of the answers were not cacheable (${NOT_CACHED_ADVICE[reason as NotCachedReason].title.toLowerCase()}): ${NOT_CACHED_ADVICE[reason as NotCachedReason].advice}`;
  if (!warmedClasses(plan).includes(visitor.warmedBy)) return `no ${visitor.warmedBy} variant was warmed: add "${visitor.warmedBy}" to variations.user_agents`;
  const encoding = negotiatedEncoding(visitor.headers["accept-encoding"]);
  if (!warmedEncodings(plan, visitor.warmedBy).has(encoding))
    return `the cache likely keys on the encoding: ${visitor.label} asks for ${encoding}, which was not warmed: add "${encoding}" to variations.encodings`;
  if (varyOn.has("user-agent")) return "answers vary on User-Agent, and no warming call sent this browser's: add its User-Agent to custom_user_agents, or have the CDN key on a device class";
  if (visitor.userAgent !== BROWSER_REQUESTS[visitor.warmedBy].userAgent)
    return `the cache likely keys on the User-Agent itself or on a header only this browser sends: add "${visitor.userAgent}" to custom_user_agents, or have the CDN key on a device class`;
  return "the cache did not keep what the warm fetched for this visitor: it expired or was evicted before the check, or the cache keys on something the warm did not send";
}

/** The figures of each visitor of a visitor check, with its likely cause. */
export function visitorFigures(counts: ReadonlyMap<VisitorProfile, VisitorCounts & { urls: number }>, plan: WarmedPlan, varyOn: ReadonlySet<string>): VisitorFigures[] {
  return [...counts].map(([profile, c]) => ({ profile, label: VISITORS[profile].label, urls: c.urls, requests: c.requests, hits: c.hits, cause: visitorCause(profile, c, plan, varyOn) }));
}

/** The headers Vary named on most of the run's answers, lower case. */
export function mostlyVaryOn(answerHeaders: Readonly<Record<string, number>>): Set<string> {
  const answers = answerHeaders.answers ?? 0;
  if (answers < MIN_ANSWERS) return new Set();
  return new Set(
    Object.entries(answerHeaders)
      .filter(([key, n]) => key.startsWith("vary:") && n / answers >= MOST)
      .map(([key]) => key.slice("vary:".length)),
  );
}

function describeVariant(key: string): string {
  const variant = variantOfKey(key);
  const parts = [isUserAgentClass(variant.user_agent) ? variant.user_agent : `"${variant.user_agent}"`];
  if (variant.language) parts.push(variant.language);
  if (variant.cookie_set) parts.push(`cookie set ${variant.cookie_set}`);
  if (variant.encoding) parts.push(variant.encoding);
  return parts.join(", ");
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** Variants that never hit (10 calls at least) while the rest of the run mostly did: the cache does not keep them. */
function variantsNeverHitting(variants: Readonly<Record<string, { calls: number; hits: number }>>): Advice[] {
  const entries = Object.entries(variants);
  const cold = entries.filter(([, f]) => f.calls >= 10 && f.hits === 0);
  if (!cold.length) return [];
  const others = entries.filter(([, f]) => !(f.calls >= 10 && f.hits === 0)).reduce((sum, [, f]) => ({ calls: sum.calls + f.calls, hits: sum.hits + f.hits }), { calls: 0, hits: 0 });
  if (others.calls < 10 || others.hits / others.calls < MOST) return [];
  return cold.slice(0, 3).map(([key, f]) => ({
    code: "variant_never_hits" as const,
    message: `Calls as ${describeVariant(key)} never hit (0 of ${f.calls}) while ${percent(others.hits / others.calls)} of the others did: the cache does not keep this variant (a CDN rule for it, or Vary on a header it sends): check the CDN's cache rules.`,
  }));
}

/**
 * What the run likely missed, from what the site answered (Vary, Set-Cookie), the per-variant hits,
 * the visitor check and the blocks, most useful first. Every rule needs a habit of the site (most
 * answers), never one answer.
 */
export function adviceFor(input: {
  plan: WarmedPlan;
  answerHeaders: Readonly<Record<string, number>>;
  variants: Readonly<Record<string, { calls: number; hits: number }>>;
  visitors: readonly VisitorFigures[] | null;
  blockedBy: Readonly<Record<string, number>>;
}): Advice[] {
  const { plan, answerHeaders, visitors, blockedBy } = input;
  const advice: Advice[] = [];
  const vendor = mainVendor(blockedBy);
  if (vendor) {
    const blocked = Object.values(blockedBy).reduce((n, c) => n + c, 0);
    advice.push({ code: "blocked", message: `${blockedSentence(vendor)} on ${plural(blocked, "call")}: ${letPreheatThrough()}.` });
  }
  for (const visitor of visitors ?? []) {
    if (visitor.cause) advice.push({ code: "visitors_missed", message: `${visitor.label} visitors missed on ${visitor.requests - visitor.hits} of ${visitor.requests}: ${visitor.cause}.` });
  }
  const varyOn = mostlyVaryOn(answerHeaders);
  const languages = plan.variations?.languages ?? [];
  if (varyOn.has("accept-language") && languages.length <= 1) {
    const examples = LANGUAGE_EXAMPLES.filter((l) => !languages.includes(l))
      .slice(0, 2)
      .join(", ");
    const warmed = languages.length ? `one language was warmed (${languages[0]})` : "no language was sent";
    advice.push({ code: "vary_accept_language", message: `Answers vary on Accept-Language but ${warmed}: add the languages your visitors use to variations.languages, e.g. ${examples}.` });
  }
  const answers = answerHeaders.answers ?? 0;
  const carried = new Set(
    [...Object.keys(plan.requestProfile?.cookies ?? {}), ...(plan.variations?.cookie_sets ?? []).flatMap((set) => Object.keys(set.cookies ?? {}))].map((name) => name.toLowerCase()),
  );
  const setOnMost =
    answers < MIN_ANSWERS
      ? []
      : Object.entries(answerHeaders)
          .filter(([key, n]) => key.startsWith("set-cookie:") && n / answers >= NEARLY_ALL)
          .map(([key]) => key.slice("set-cookie:".length));
  const cookies = setOnMost.filter((name) => !INFRASTRUCTURE_COOKIES.test(name) && !carried.has(name.toLowerCase())).slice(0, 3);
  if (cookies.length) {
    const named = cookies.map((name) => `\`${name}\``).join(", ");
    advice.push({
      code: "set_cookie",
      message: `${cookies.length === 1 ? `A ${named} cookie is` : `Cookies ${named} are`} set on ${answerHeaders[`set-cookie:${cookies[0]}`]} of ${answers} answers and no cookie set carries ${cookies.length === 1 ? "it" : "them"}: if the cache keys on ${cookies.length === 1 ? "it" : "them"}, add cookie sets with the values your visitors carry (variations.cookie_sets).`,
    });
  }
  if (varyOn.has("cookie"))
    advice.push({
      code: "vary_cookie",
      message: "Answers vary on Cookie: visitors with other cookies get other copies. Warm the cookies they carry with variations.cookie_sets, or have the CDN leave cookies out of the cache key.",
    });
  if (varyOn.has("user-agent") && !(visitors ?? []).some((v) => v.cause?.startsWith("answers vary on User-Agent")))
    advice.push({
      code: "vary_user_agent",
      message:
        "Answers vary on User-Agent: a cache that honours it keeps a copy per browser version, which four classes cannot fill. Have the CDN key on a device class, or add your visitors' main browsers to custom_user_agents.",
    });
  advice.push(...variantsNeverHitting(input.variants));
  return advice;
}
