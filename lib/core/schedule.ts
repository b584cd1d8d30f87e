import type { Cron } from "croner";
import { cronFor, whyNoDateMatches } from "./cron";
import { CRON_MACROS, cronOfMacro } from "./cron-macros";

/**
 * Collapses spacing and spells a macro as the cron it stands for, so that every reader (the stored
 * schedule, its description, next_run_at) sees a 5-field cron; returns an error sentence instead when
 * the expression is not one, or when no date can ever match it.
 */
export function checkCron(expression: string): { expression: string } | { problem: string } {
  const trimmed = expression.trim();
  if (trimmed.startsWith("@")) {
    const cron = cronOfMacro(trimmed);
    if (!cron) return { problem: `is not a schedule macro Preheat knows: use ${Object.keys(CRON_MACROS).join(", ")} or a 5-field cron expression` };
    return { expression: cron };
  }
  const normalised = trimmed.split(/\s+/).join(" ");
  if (normalised.split(" ").length !== 5) {
    return { problem: `must be a 5-field cron expression (minute hour day-of-month month day-of-week), e.g. "0 3 * * *"` };
  }
  let cron: Cron;
  try {
    cron = cronFor(normalised);
  } catch (error) {
    return { problem: `is not a valid cron expression: ${(error as Error).message.replace(/^CronPattern: /, "")}` };
  }
  // Without this a boost would be saved with next_run_at null and silently never run.
  if (!cron.nextRun()) return { problem: `never fires (${whyNoDateMatches(normalised)})` };
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

/**
 * When a boost's next full run starts: its schedule's next occurrence after `after`. A keep-warm
 * boost without a schedule runs in full once a day, so that pages never warmed, or whose lifetime is
 * unknown, are warmed too; `soon`: at once (keep-warm just turned on, with no lifetime learned yet).
 */
export function nextFullRunAt(boost: { schedule: string | null; keepWarm: boolean }, after = new Date(), soon = false): Date | null {
  if (boost.schedule) return nextRunAt(boost.schedule, after);
  if (!boost.keepWarm) return null;
  return soon ? after : new Date(after.getTime() + KEEP_WARM_FULL_RUN_HOURS * 3600_000);
}

/** A keep-warm boost without a schedule runs in full this often. */
const KEEP_WARM_FULL_RUN_HOURS = 24;

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
