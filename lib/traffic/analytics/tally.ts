import type { AnalyticsRead } from "./errors";

/** traffic_visits.visits is an integer column. */
const MAX_VISITS = 2_147_483_647;
/** Longer paths are not pages anyone warms (and would bloat the table). */
const MAX_PATH_LENGTH = 2048;

/**
 * The path as the popularity table keeps it, or undefined when the row names no page: its fragment
 * dropped (never sent to a server); "(not set)", "", a full URL or anything else not starting with "/"
 * left out; never a NUL (PostgreSQL's text refuses it).
 */
function pagePath(value: string): string | undefined {
  const hash = value.indexOf("#");
  const path = hash === -1 ? value : value.slice(0, hash);
  if (!path.startsWith("/") || path.includes("\u0000") || path.length > MAX_PATH_LENGTH) return undefined;
  return path;
}

/** The rows of one read, summed per path (a fragment dropped may make two rows one path). */
export class VisitsTally {
  private readonly visits = new Map<string, number>();
  private rows = 0;

  get count(): number {
    return this.rows;
  }

  /** One row the API returned: counted as a row, and its views added when it names a page. */
  add(value: string, views: number): void {
    this.rows++;
    const path = pagePath(value);
    if (path === undefined || views <= 0) return;
    this.visits.set(path, Math.min(MAX_VISITS, (this.visits.get(path) ?? 0) + views));
  }

  result(): AnalyticsRead {
    return { visits: this.visits, rows: this.rows };
  }
}
