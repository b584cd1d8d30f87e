/**
 * What every cache detector (lib/warm/cache-status.ts) reads headers with: one map of them by
 * lower-case name, lists split as HTTP splits them, and the verdicts the detectors answer.
 */
export type CacheVerdict = "hit" | "miss" | "bypass" | "dynamic" | "expired" | "stale" | "revalidated" | "unknown";

export type RawHeaders = Record<string, string | string[] | undefined>;
type Detection = { verdict: CacheVerdict; pop: string | null; raw: string | null; cdn?: string };
export type Detector = { cdn: string; detect: (headers: HeaderMap) => Detection | null };

export class HeaderMap {
  private readonly values = new Map<string, string>();

  constructor(headers: RawHeaders) {
    // Callers promise lower-case names, but a stray capital must not hide a CDN.
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (value === undefined || value === null) continue;
      const joined = Array.isArray(value) ? value.map(String).join(", ") : String(value);
      const key = name.toLowerCase();
      const previous = this.values.get(key);
      this.values.set(key, previous === undefined ? joined : `${previous}, ${joined}`);
    }
  }

  get(name: string): string | null {
    return this.values.get(name) ?? null;
  }

  /** Every header, by lower-case name: for a verdict in a header whose name the site chose. */
  entries(): IterableIterator<[string, string]> {
    return this.values.entries();
  }

  hasPrefix(prefix: string): boolean {
    for (const name of this.values.keys()) if (name.startsWith(prefix)) return true;
    return false;
  }
}

/** Splits on `separator` outside double quotes, so that `"Netlify Edge"; detail="a, b"` stays whole. */
export function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (quoted && char === "\\") {
      current += char + (value[i + 1] ?? "");
      i++;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === separator && !quoted) {
      parts.push(current.trim());
      current = "";
    } else {
      current += char;
    }
  }
  parts.push(current.trim());
  // An unterminated quote would swallow the rest of the value: read it as if there were no quotes.
  if (quoted)
    return value
      .split(separator)
      .map((part) => part.trim())
      .filter(Boolean);
  return parts.filter(Boolean);
}

export const lastEntry = (value: string): string => splitOutsideQuotes(value, ",").pop() ?? "";
export const unquote = (value: string): string => {
  const trimmed = value.trim();
  if (/^".*"$/.test(trimmed)) return trimmed.slice(1, -1).replace(/\\(.)/g, "$1");
  return trimmed.replace(/^"|"$/g, "");
};

/** `key`'s verdict in `table`, else `otherwise`. Own keys only: a header saying `constructor` must not find Object.prototype's. */
export const lookup = (table: Record<string, CacheVerdict>, key: string, otherwise: CacheVerdict = "unknown"): CacheVerdict => (Object.hasOwn(table, key) ? table[key]! : otherwise);

/** Age is delta-seconds; anything else (negative, fractional, garbage) is no evidence at all. */
export function positiveAge(h: HeaderMap): boolean {
  const age = h.get("age");
  return age !== null && splitOutsideQuotes(age, ",").some((value) => /^\d+$/.test(value) && Number(value) > 0);
}
