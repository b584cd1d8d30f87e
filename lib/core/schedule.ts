import { Cron } from "croner";

function cronFor(expression: string): Cron {
  // Classic (Vixie) cron semantics: day-of-month OR day-of-week; always UTC. UTC as a fixed offset,
  // not a time zone: the same times, about ten times faster, since no date goes through Intl (a
  // schedule of every minute fires 43,200 times in the 30 days a boost's monthly cost counts).
  return new Cron(expression, { utcOffset: 0, mode: "5-part", domAndDow: false, paused: true });
}

/** Collapses spacing; returns an error sentence instead when the expression is not a 5-field cron. */
export function checkCron(expression: string): { expression: string } | { problem: string } {
  const normalised = expression.trim().split(/\s+/).join(" ");
  if (normalised.split(" ").length !== 5) {
    return { problem: `must be a 5-field cron expression (minute hour day-of-month month day-of-week), e.g. "0 3 * * *"` };
  }
  try {
    cronFor(normalised);
  } catch (error) {
    return { problem: `is not a valid cron expression: ${(error as Error).message.replace(/^CronPattern: /, "")}` };
  }
  return { expression: normalised };
}

/** The next times the expression fires strictly after `after`, in UTC. */
export function nextRunTimes(expression: string, count: number, after = new Date()): Date[] {
  return cronFor(expression).nextRuns(count, after);
}

export function nextRunAt(expression: string | null | undefined, after = new Date()): Date | null {
  if (!expression) return null;
  return nextRunTimes(expression, 1, after)[0] ?? null;
}

/** A schedule firing every minute fires about 44,640 times a month: counted in steps of this many. */
const OCCURRENCES_STEP = 1_000;

/**
 * How many times the expression fires after `after` and before `end`: the one count behind the
 * month's projection (GET /v1/usage) and a boost's monthly cost (its estimate's `calls_per_month`).
 */
export function occurrencesBetween(expression: string, after: Date, end: Date): number {
  let count = 0;
  let from = after;
  for (;;) {
    const next = nextRunTimes(expression, OCCURRENCES_STEP, from).filter((time) => time < end);
    count += next.length;
    if (next.length < OCCURRENCES_STEP) return count;
    from = next.at(-1)!;
  }
}
