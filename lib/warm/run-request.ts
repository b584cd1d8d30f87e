import type { Signer } from "web-bot-auth";

/**
 * What every call of one run sends beyond its variant (URL × user agent × language × region):
 * resolved once when a worker takes the run up (lib/runs/warm-loop.ts, from the run's request
 * profile and its site), handed to the engine with each call, and read by warmCall.
 */
export type RunRequest = {
  /** The site's host: credentials (Basic auth) are sent there only, never after a redirect elsewhere. */
  siteHost: string;
  /** Extra request headers, lower-cased names (the run's request profile). */
  headers: Readonly<Record<string, string>>;
  /** Cookies every call sends (the run's request profile), before its cookie set's. */
  cookies: Readonly<Record<string, string>>;
  /** `Basic …`, or null: for the site's own host only. */
  authorization: string | null;
  /** The cookies of each cookie set of the run's variations, by name: a call sends its set's after the profile's. */
  cookieSets: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The site's `Preheat-Verification` secret, and the signer of Web Bot Auth signatures or null (lib/warm/identify.ts). */
  verification: string | null;
  signer: Signer | null;
};

/** A run with no profile: the variant's own headers, nothing more. */
export const PLAIN_REQUEST: RunRequest = { siteHost: "", headers: {}, cookies: {}, authorization: null, cookieSets: {}, verification: null, signer: null };
