import { z } from "zod";

export const USER_AGENT_CLASSES = ["mobile", "desktop", "bot", "ai_crawler"] as const;
/** Classes of resource a boost may target, recognised from the URL's extension (no extension = html). */
export const CONTENT_TYPES = ["html", "css", "js", "image", "font", "pdf", "json", "xml", "video", "audio", "other"] as const;

/** Each language multiplies a run's calls: enough for every market a site serves, not a multiplier to abuse. */
export const MAX_LANGUAGES = 20;

/** The values once each, in their first order. */
export const uniq = <T>(values: T[]) => [...new Set(values)];

const languageTagSchema = z
  .string()
  .regex(/^[a-zA-Z]{2,3}-[a-zA-Z]{2}$/, "must be a language tag of the form ll-RR, e.g. fr-FR")
  .transform((tag) => {
    const [language, region] = tag.split("-");
    return `${language!.toLowerCase()}-${region!.toUpperCase()}`;
  });

/** Cookie sets multiply a run's calls like languages: enough for a site's currencies or consent states. */
const MAX_COOKIE_SETS = 10;
/** Accept-Encoding values a run can warm as variants of their own, each sent exactly as written. */
export const ENCODINGS = ["zstd", "br", "gzip", "identity"] as const;
/** Extra headers a request profile may add, and the largest value of one (bytes). */
const MAX_PROFILE_HEADERS = 20;
const MAX_HEADER_VALUE_BYTES = 1024;
const MAX_CUSTOM_USER_AGENTS = 10;
const MAX_COOKIES = 50;

/** RFC 9110 token: what a header or cookie name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value Preheat sends as it is: visible ASCII, spaces and tabs, no line break. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/** RFC 6265 cookie-octets: no space, quote, comma, semicolon nor backslash, so one cookie cannot spill into the next. */
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/**
 * Headers a request profile may not set, and what to use instead: those the connection owns
 * (undici sets them), and those each call's variant or credentials set (one field for each thing).
 */
const REFUSED_HEADERS: Record<string, string> = {
  host: "the URL's host is sent",
  "content-length": "the connection sets it",
  connection: "the connection sets it",
  "transfer-encoding": "the connection sets it",
  te: "the connection sets it",
  upgrade: "the connection sets it",
  cookie: "use `cookies` (or `variations.cookie_sets`) instead",
  authorization: "use `basic_auth` instead",
  "user-agent": "use `custom_user_agents` (or `variations.user_agents`) instead",
  "accept-language": "use `variations.languages` instead",
  "accept-encoding": "use `variations.encodings` instead",
};

/** Why a profile may not set this header, or null when it may. */
function refusedHeader(name: string): string | null {
  const lower = name.toLowerCase();
  if (lower.startsWith("proxy-")) return "it is meant for a proxy, not the site";
  return REFUSED_HEADERS[lower] ?? null;
}

function checkValue(value: string, ctx: z.RefinementCtx, path: PropertyKey[]) {
  if (!HEADER_VALUE.test(value)) ctx.addIssue({ code: "custom", path, message: "must be printable ASCII on one line" });
  else if (value.length > MAX_HEADER_VALUE_BYTES) ctx.addIssue({ code: "custom", path, message: `must be at most ${MAX_HEADER_VALUE_BYTES} bytes` });
}

/** Extra request headers, by name: names are kept lower-cased (HTTP's are case-insensitive), so two spellings of one name are one header. */
const profileHeaders = z
  .record(z.string(), z.string())
  .transform((headers, ctx) => {
    const entries = Object.entries(headers);
    if (entries.length > MAX_PROFILE_HEADERS) ctx.addIssue({ code: "custom", message: `must list at most ${MAX_PROFILE_HEADERS} headers` });
    const out: Record<string, string> = {};
    for (const [name, value] of entries) {
      const refused = refusedHeader(name);
      if (!TOKEN.test(name)) ctx.addIssue({ code: "custom", path: [name], message: "is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)" });
      else if (refused) ctx.addIssue({ code: "custom", path: [name], message: `may not be set here: ${refused}` });
      else if (Object.hasOwn(out, name.toLowerCase())) ctx.addIssue({ code: "custom", path: [name], message: "is given twice (header names are case-insensitive)" });
      checkValue(value, ctx, [name]);
      out[name.toLowerCase()] = value;
    }
    return out;
  })
  .meta({
    description: `Extra request headers every call sends to the site (name → value; never after a redirect to another host), at most ${MAX_PROFILE_HEADERS}, each value at most ${MAX_HEADER_VALUE_BYTES} bytes of printable ASCII; names are kept lower-cased. Refused with 422: Host, Content-Length, Connection, Transfer-Encoding, TE, Upgrade and Proxy-* (the connection's own); Cookie (use \`cookies\`), Authorization (use \`basic_auth\`), User-Agent, Accept-Language and Accept-Encoding (use \`custom_user_agents\` and \`variations\`).`,
    example: { "x-preview": "0" },
  });

/** Cookies by name: names are tokens, values RFC 6265 cookie-octets (no space, quote, comma, semicolon nor backslash). */
const cookiesSchema = z.record(z.string(), z.string()).superRefine((cookies, ctx) => {
  const entries = Object.entries(cookies);
  if (entries.length > MAX_COOKIES) ctx.addIssue({ code: "custom", message: `must list at most ${MAX_COOKIES} cookies` });
  for (const [name, value] of entries) {
    if (!TOKEN.test(name)) ctx.addIssue({ code: "custom", path: [name], message: "is not a valid cookie name (letters, digits and !#$%&'*+-.^_`|~ only)" });
    if (!COOKIE_VALUE.test(value)) ctx.addIssue({ code: "custom", path: [name], message: 'must be made of cookie characters (printable ASCII but space, ", comma, ; and \\)' });
    else if (value.length > MAX_HEADER_VALUE_BYTES) ctx.addIssue({ code: "custom", path: [name], message: `must be at most ${MAX_HEADER_VALUE_BYTES} bytes` });
  }
});

const cookieSetSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, "must be 1 to 64 letters, digits, '.', '_' or '-'")
      .meta({ description: "Names the set in results and per-variant figures.", example: "USD" }),
    cookies: cookiesSchema.meta({
      description: "The set's cookies (name → value); empty for a visitor with none. They win over the profile's cookies of the same name.",
      example: { currency: "USD" },
    }),
  })
  .meta({ id: "CookieSet" });

export const variationsSchema = z
  .object({
    user_agents: z.array(z.enum(USER_AGENT_CLASSES)).transform(uniq).optional().meta({ description: "User-agent classes; each is one call per URL. Default: desktop." }),
    languages: z
      .array(languageTagSchema)
      .max(MAX_LANGUAGES, `must list at most ${MAX_LANGUAGES} languages`)
      .transform(uniq)
      .optional()
      .meta({ description: `Accept-Language values of the form ll-RR, at most ${MAX_LANGUAGES}; each is one call per URL and user agent. Default: none sent.` }),
    cookie_sets: z
      .array(cookieSetSchema)
      .max(MAX_COOKIE_SETS, `must list at most ${MAX_COOKIE_SETS} cookie sets`)
      .superRefine((sets, ctx) => {
        sets.forEach((set, i) => {
          if (sets.findIndex((other) => other.name === set.name) < i) ctx.addIssue({ code: "custom", path: [i, "name"], message: `is used twice: "${set.name}"` });
        });
      })
      .optional()
      .meta({
        description: `Named sets of cookies, at most ${MAX_COOKIE_SETS}, for caches that key on a cookie (a currency, a consent state): each set is one call per URL, user agent and language. Default: none (the profile's cookies only).`,
        example: [
          { name: "USD", cookies: { currency: "USD" } },
          { name: "EUR", cookies: { currency: "EUR" } },
        ],
      }),
    encodings: z.array(z.enum(ENCODINGS)).transform(uniq).optional().meta({
      description:
        "Accept-Encoding values, for caches that key on the encoding: each is one call per URL, user agent, language and cookie set, sending exactly that value (`identity`: no compression). Default: each class sends its browser's own (Chromium `gzip, deflate, br, zstd`, Safari and the crawlers `gzip, deflate, br`).",
    }),
  })
  .meta({ id: "Variations", description: "Each combination of user agent, language, cookie set and encoding is one call per URL and region." });

export type Variations = z.output<typeof variationsSchema>;

/** Variations as stored and returned (normalised: de-duplicated, tags as ll-RR). */
export const variationsValueSchema = z
  .object({
    user_agents: z.array(z.enum(USER_AGENT_CLASSES)).optional(),
    languages: z.array(z.string()).optional(),
    cookie_sets: z.array(z.object({ name: z.string(), cookies: z.record(z.string(), z.string()) })).optional(),
    encodings: z.array(z.enum(ENCODINGS)).optional(),
  })
  .meta({ id: "VariationsValue" });

const customUserAgents = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(512)
      .regex(HEADER_VALUE, "must be printable ASCII on one line")
      .refine((agent) => !(USER_AGENT_CLASSES as readonly string[]).includes(agent), "is the name of a user-agent class: list it in `variations.user_agents` instead"),
  )
  .max(MAX_CUSTOM_USER_AGENTS, `must list at most ${MAX_CUSTOM_USER_AGENTS} user agents`)
  .transform(uniq)
  .meta({
    description: `User-Agent strings warmed as variants of their own beside the classes of \`variations.user_agents\` (desktop when none is listed), at most ${MAX_CUSTOM_USER_AGENTS}: each is one call per URL, language, cookie set and encoding, sent with a generic browser's other headers. Results name them by the string itself.`,
    example: ["Mozilla/5.0 (compatible; MyAppBot/1.0)"],
  });

const basicAuthInput = z
  .object({
    username: z
      .string()
      .min(1)
      .max(256)
      .regex(/^[^:\p{Cc}]*$/u, "must not hold ':' nor control characters"),
    password: z
      .string()
      .min(1)
      .max(1024)
      .regex(/^\P{Cc}*$/u, "must not hold control characters")
      .optional()
      .meta({
        description: "Write-only: stored encrypted (AES-256-GCM), never returned nor logged. Required, except in an update of a boost that has one already: left out, the stored password is kept.",
      }),
  })
  .meta({
    id: "BasicAuthInput",
    description:
      "HTTP Basic credentials (a staging site), sent to the site's own host only, never after a redirect to another host. Needs PREHEAT_SECRETS_KEY on the server (otherwise 422); null removes them.",
  });

/** What every call of a boost or warm sends beyond its variant. */
export const requestProfileSchema = z
  .object({
    headers: profileHeaders.optional(),
    cookies: cookiesSchema.optional().meta({ description: "Cookies every call sends (name → value), before the call's cookie set's.", example: { consent: "all" } }),
    basic_auth: basicAuthInput.nullable().optional(),
    custom_user_agents: customUserAgents.optional(),
  })
  .meta({ id: "RequestProfile", description: "What every call sends beyond its variant: extra headers, cookies, Basic auth, and extra user agents (which add calls)." });

export type RequestProfileInput = z.output<typeof requestProfileSchema>;

/**
 * The profile's fields as the top level of a boost or warm body also takes them (`headers`,
 * `cookies`, `basic_auth`, `custom_user_agents`): the same rules, folded into the one profile
 * (lib/runs/request-profile.ts, requestProfileOf). A body gives one form or the other.
 */
export const requestProfileTopLevel = {
  headers: requestProfileSchema.shape.headers.meta({ description: "Same as `request_profile.headers`." }),
  cookies: requestProfileSchema.shape.cookies.meta({ description: "Same as `request_profile.cookies`." }),
  basic_auth: requestProfileSchema.shape.basic_auth.meta({ description: "Same as `request_profile.basic_auth` (write-only)." }),
  custom_user_agents: requestProfileSchema.shape.custom_user_agents.meta({ description: "Same as `request_profile.custom_user_agents`." }),
};

/** A profile as returned: the password never, only that one is set. */
export const requestProfileValueSchema = z
  .object({
    headers: z.record(z.string(), z.string()).optional(),
    cookies: z.record(z.string(), z.string()).optional(),
    basic_auth: z
      .object({ username: z.string(), password_set: z.literal(true) })
      .optional()
      .meta({ description: "The password is never returned." }),
    custom_user_agents: z.array(z.string()).optional(),
  })
  .meta({ id: "RequestProfileValue" });

export type RequestProfilePayload = z.infer<typeof requestProfileValueSchema>;

/** What a request profile changes in the count of calls (the estimate of a boost being edited). */
export const requestProfileDraft = z
  .object({ custom_user_agents: customUserAgents.optional() })
  .meta({ description: "Of the request profile, what changes the calls (any other field is ignored here)." });

/** Shared by boosts and warms. */
export const verify = z.union([z.boolean(), z.literal("visitors")]).meta({
  id: "Verify",
  description:
    "`true`: after each run's calls, request every cacheable miss once more (after PREHEAT_VERIFY_DELAY_SECONDS, 5 s by default) and count how many became hits (`summary.verified`). `\"visitors\"`: after the calls, a visitor check: a sample of the run's URLs in each region (20 by default, PREHEAT_VISITOR_CHECK_URLS) is requested once as each standard visitor (Chrome desktop, Chrome Android, Safari iOS, Firefox, Googlebot smartphone; each with the run's cookies, cookie sets and Basic auth, not its extra headers), and `summary.visitors` gives each visitor's hit ratio and the likely cause of its misses. Neither kind of call is counted in `total_calls` nor in the quota; a visitor check's requests can fill the cache themselves. `false` when omitted.",
});
export type VerifyMode = z.infer<typeof verify>;

/** The columns a verify mode is stored in (boosts and runs alike). */
export function verifyColumns(mode: VerifyMode): { verify: boolean; verifyVisitors: boolean } {
  return { verify: mode === true, verifyVisitors: mode === "visitors" };
}

/** The verify mode stored in those columns. */
export function verifyMode(row: { verify: boolean; verifyVisitors: boolean }): VerifyMode {
  return row.verifyVisitors ? "visitors" : row.verify;
}

/** One variant of a run's calls: what its results and per-variant figures name. */
export const variantFields = {
  user_agent: z.string().meta({ description: "A user-agent class, or a custom User-Agent string of the request profile." }),
  language: z.string().nullable().meta({ description: "Accept-Language tag; null when none was sent." }),
  cookie_set: z.string().nullable().meta({ description: "The cookie set's name; null when the run has none." }),
  encoding: z
    .string()
    .nullable()
    .meta({ description: `The Accept-Encoding variant (${ENCODINGS.join(", ")}); null for the browser's own.` }),
};
