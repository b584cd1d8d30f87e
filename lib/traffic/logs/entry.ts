/**
 * One request as a log line tells it, whatever the format: the fields the popularity table needs,
 * as the server wrote them. Each format's reader fills what its line has; `null` is "the line
 * does not say" (a CLF line has no host, most lines no content type), which never skips a line.
 */
type LogEntry = {
  method: string;
  /** The request target as logged: origin form (`/path?query`) or absolute form (`http://host/path`). */
  target: string;
  status: number;
  host: string | null;
  /** null: the format has no user agent (CLF's common); "" : the request had none. */
  userAgent: string | null;
  contentType: string | null;
  /** The day of the request in UTC, YYYY-MM-DD. */
  day: string;
};

/** What a reader makes of one line: an entry, or why it is broken (never thrown: one bad line must not stop a read). */
export type LineResult = LogEntry | "broken";

/** A value of a JSON line as a string: numbers (nginx's unquoted `$status`) too; `-` and "" are absent. */
export function text(value: unknown): string | null {
  if (typeof value === "string") return value === "" || value === "-" ? null : value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** An HTTP status from a string or a number; anything else is not one. */
export function statusOf(value: unknown): number | null {
  const status = typeof value === "number" ? value : typeof value === "string" && /^\d{3}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(status) && status >= 100 && status <= 999 ? status : null;
}

/** A user agent field: absent from the record is null (the log does not say), present but empty or `-` is "" (the request sent none). */
export function agent(record: Record<string, unknown>, key: string): string | null {
  if (!(key in record)) return null;
  const value = record[key];
  return typeof value === "string" && value !== "-" ? value : "";
}
