/** Days (YYYY-MM-DD, UTC) from each format's timestamp: every line of a log carries one. */

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

/** Days before 1970 or after 2100 are a broken clock or a broken line, not a visit. */
const MIN_MS = 0;
const MAX_MS = Date.UTC(2100, 0, 1);

const HOUR_MS = 3_600_000;
const hourDays = new Map<number, string>();

/** Formatting a date is the slow part of a line: days are kept by the hour (Caddy's `ts` differs on every line). */
function dayOfMs(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < MIN_MS || ms >= MAX_MS) return null;
  const hour = Math.floor(ms / HOUR_MS);
  let day = hourDays.get(hour);
  if (day === undefined) {
    day = new Date(hour * HOUR_MS).toISOString().slice(0, 10);
    if (hourDays.size >= 10_000) hourDays.clear();
    hourDays.set(hour, day);
  }
  return day;
}

/**
 * A day depends on the date, the hour and the offset only: answers are kept by those, so that a
 * log's million lines cost a few hundred parses. Each cache starts over when full, so that a
 * hostile log of random dates cannot grow it.
 */
function cached(cache: Map<string, string | null>, key: string, parse: () => string | null): string | null {
  let day = cache.get(key);
  if (day === undefined) {
    day = parse();
    if (cache.size >= 10_000) cache.clear();
    cache.set(key, day);
  }
  return day;
}

/** The day of a date and hour in an offset (minutes east of UTC); null for a date that does not exist (31 February). */
function dayOf(year: number, month: number, date: number, hour: number, offsetMinutes: number): string | null {
  const ms = Date.UTC(year, month, date, hour);
  if (hour > 23 || new Date(ms).getUTCDate() !== date) return null;
  return dayOfMs(ms - offsetMinutes * 60_000);
}

const clfDays = new Map<string, string | null>();
const CLF = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):[0-5]\d:[0-6]\d ([+-])(\d{2})(\d{2})$/;

/** CLF's `10/Oct/2000:13:55:36 -0700` (nginx's $time_local, Apache's %t). */
export function dayOfClf(value: string): string | null {
  if (value.length !== 26) return null;
  // The minutes and seconds are checked on every line, the rest once per date, hour and offset.
  if (!/^:[0-5]\d:[0-6]\d $/.test(value.slice(14, 21))) return null;
  return cached(clfDays, value.slice(0, 14) + value.slice(21), () => {
    const m = CLF.exec(value);
    const month = m ? MONTHS[m[2]!] : undefined;
    if (!m || month === undefined) return null;
    return dayOf(Number(m[3]), month, Number(m[1]), Number(m[4]), (m[5] === "-" ? -1 : 1) * (Number(m[6]) * 60 + Number(m[7])));
  });
}

const isoDays = new Map<string, string | null>();
const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):[0-5]\d:[0-6]\d(?:\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?$/i;

/** RFC 3339 / ISO 8601 with an offset or Z (nginx's $time_iso8601, Cloudflare's rfc3339); without one, UTC. */
export function dayOfIso(value: string): string | null {
  if (value.length < 19 || value.length > 35 || !ISO.test(value)) return null;
  return cached(isoDays, value.slice(0, 13) + value.slice(19).replace(/^\.\d+/, ""), () => {
    const m = ISO.exec(value)!;
    const zone = m[5] && m[5].toUpperCase() !== "Z" ? m[5] : null;
    const offset = zone ? (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2))) : 0;
    return dayOf(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), offset);
  });
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
