import { Cron } from "croner";

function cronFor(expression: string): Cron {
  // Classic (Vixie) cron semantics: day-of-month OR day-of-week; always UTC.
  return new Cron(expression, { timezone: "UTC", mode: "5-part", domAndDow: false, paused: true });
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
