import type { LineResult } from "@/lib/traffic/logs/entry";
import { statusOf } from "@/lib/traffic/logs/entry";
import { dayOfIso } from "@/lib/traffic/logs/time";

/**
 * CloudFront's standard log (W3C extended: `#Version` and `#Fields:` lines, then one request per
 * line, fields separated by tabs). The `#Fields:` line is honoured as given, since a log may hold
 * fewer or more fields than today's 33; before one is seen, the documented order is assumed. The
 * site's host is `x-host-header` (what the visitor asked for): `cs(Host)` is the distribution's
 * own name (d111111abcdef8.cloudfront.net). CloudFront percent-encodes spaces and a few other
 * characters in every field, the user agent included.
 */

const DOCUMENTED_FIELDS =
  "date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end";

/** A field's value by name: null when the record has no such field, "" when it holds `-` or nothing. */
type Field = (name: string) => string | null;

function decoded(value: string | null): string | null {
  if (value === "") return value;
  if (value === null || !value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** An entry from a CloudFront record, whether a tab-separated line or standard logging v2's JSON. */
export function cloudFrontEntry(field: Field): LineResult {
  const present = (name: string) => field(name) || null;
  const date = present("date");
  const time = present("time") ?? "00:00:00";
  const method = present("cs-method");
  const stem = present("cs-uri-stem");
  const status = statusOf(field("sc-status"));
  const day = date ? dayOfIso(`${date}T${time}Z`) : null;
  if (!method || !stem || status === null || !day) return "broken";
  const query = present("cs-uri-query");
  return {
    method,
    target: query ? `${stem}?${query}` : stem,
    status,
    host: present("x-host-header") ?? present("cs(Host)"),
    userAgent: decoded(field("cs(User-Agent)")),
    contentType: present("sc-content-type"),
    day,
  };
}

/** A CloudFront file's reader: it keeps the `#Fields:` line's order for the lines after it. */
export class CloudFrontReader {
  private columns = new Map<string, number>();

  constructor() {
    this.setFields(DOCUMENTED_FIELDS);
  }

  /** A `#Fields:` directive's names, separated by spaces. */
  setFields(names: string) {
    this.columns = new Map(
      names
        .trim()
        .split(/\s+/)
        .map((name, index) => [name, index] as const),
    );
  }

  readLine(line: string): LineResult {
    const values = line.split("\t");
    return cloudFrontEntry((name) => {
      const index = this.columns.get(name);
      if (index === undefined) return null;
      const value = values[index];
      return value === undefined || value === "-" ? "" : value;
    });
  }
}
