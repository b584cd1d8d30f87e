import { z } from "zod";

/** The most a page view's post may weigh: the script sends a few hundred bytes; a larger body is refused (413) before it is read further. */
export const MAX_BEACON_BYTES = 4096;
/** The longest path counted: the rest of the table's paths are far shorter, and a longer one is likely not a page. */
const MAX_PATH_LENGTH = 1024;
/** Times past ten minutes are not a first byte but a tab left open: refused. */
const MAX_TTFB_MS = 600_000;

/**
 * A site-relative path as `location.pathname` gives it: a `/`, then only the characters a URL's path
 * holds (non-ASCII percent-encoded), every `%` starting an escape, no dot segment, and never `//` at
 * its start (a host). No query string or fragment: the beacon never sends them, since they may carry
 * what identifies a visitor.
 */
const PATH = /^\/(?!\/)(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

const path = z
  .string()
  .max(MAX_PATH_LENGTH, `at most ${MAX_PATH_LENGTH} characters`)
  .regex(PATH, "a path of the site: starts with one `/`, no scheme, host, query or fragment")
  .refine((value) => !DOT_SEGMENT.test(value), "no `.` or `..` segment");

const entry = z.tuple([z.string().max(64), z.string().max(256)]);

/**
 * What the beacon posts (text/plain JSON, so that the browser sends it without a preflight), in the
 * short keys that keep the script small: `k` the site's beacon key, `p` the path, `t` the time to
 * first byte in ms (absent: none measured), `d` the device class (m, t, d), `s` the navigation's
 * Server-Timing entries as `[name, description]`. Nothing else is accepted.
 */
export const beaconBody = z
  .object({
    k: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/, "a beacon key"),
    p: path,
    t: z.number().min(0).max(MAX_TTFB_MS).nullable().optional(),
    d: z.enum(["m", "t", "d"]),
    s: z.array(entry).max(32).default([]),
  })
  .strict();

export type BeaconBody = z.output<typeof beaconBody>;
