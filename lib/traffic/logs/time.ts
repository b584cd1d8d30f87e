/**
 * Days (YYYY-MM-DD, UTC) from each format's timestamp. Every line of a log carries one, and most
 * lines of a busy log repeat the previous line's second: the last string read is kept, so the
 * common case costs one comparison.
 */

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

/** Days before 1970 or after 2100 are a broken clock or a broken line, not a visit. */
const MIN_MS = 0;
const MAX_MS = Date.UTC(2100, 0, 1);

function dayOfMs(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < MIN_MS || ms >= MAX_MS) return null;
  return new Date(ms).toISOString().slice(0, 10);
}

let lastClf = "";
let lastClfDay: string | null = null;

/** CLF's `10/Oct/2000:13:55:36 -0700` (nginx's $time_local, Apache's %t). */
export function dayOfClf(value: string): string | null {
  if (value === lastClf) return lastClfDay;
  const m = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/.exec(value);
  const month = m ? MONTHS[m[2]!] : undefined;
  let day: string | null = null;
  if (m && month !== undefined) {
    const offset = (m[7] === "-" ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9])) * 60_000;
    day = dayOfMs(Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6])) - offset);
  }
  lastClf = value;
  lastClfDay = day;
  return day;
}

let lastIso = "";
let lastIsoDay: string | null = null;

/** RFC 3339 / ISO 8601 with an offset or Z (nginx's $time_iso8601, Cloudflare's rfc3339); without one, UTC. */
export function dayOfIso(value: string): string | null {
  if (value === lastIso) return lastIsoDay;
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(value);
  let day: string | null = null;
  if (m) {
    const zone = m[7] && m[7].toUpperCase() !== "Z" ? m[7] : null;
    const offset = zone ? (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2))) * 60_000 : 0;
    const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
    const ms = Date.UTC(y, mo - 1, d, h, mi, s);
    // Date.UTC rolls 2026-02-31 over to March: such a date is not one.
    if (new Date(ms).getUTCDate() === d) day = dayOfMs(ms - offset);
  }
  lastIso = value;
  lastIsoDay = day;
  return day;
}

/**
 * A Unix timestamp in seconds (Caddy's `ts`, nginx's $msec), milliseconds, microseconds or
 * nanoseconds (Cloudflare's unixnano): told apart by size, since seconds reach 1e10 only in 2286.
 */
function dayOfEpoch(value: number): string | null {
  if (!Number.isFinite(value) || value <= 0) return null;
  const abs = value;
  const ms = abs >= 1e17 ? abs / 1e6 : abs >= 1e14 ? abs / 1e3 : abs >= 1e11 ? abs : abs * 1000;
  return dayOfMs(ms);
}

/** A timestamp that may be any of the above, as JSON lines hold them (a number, or a string of either kind). */
export function dayOfAny(value: unknown): string | null {
  if (typeof value === "number") return dayOfEpoch(value);
  if (typeof value !== "string" || value === "") return null;
  if (/^\d+(\.\d+)?$/.test(value)) return dayOfEpoch(Number(value));
  if (value.length >= 26 && value[2] === "/") return dayOfClf(value);
  return dayOfIso(value);
}
