import cronstrue from "cronstrue";

/** "At 03:00 AM" → "At 03:00, UTC": the schedule in words; null when cronstrue cannot read it. */
export function describeSchedule(expression: string | null | undefined): string | null {
  if (!expression) return null;
  try {
    return `${cronstrue.toString(expression, { use24HourTimeFormat: true, verbose: false })} (UTC)`;
  } catch {
    return null;
  }
}

export const SCHEDULE_PRESETS = [
  { name: "No schedule", cron: "" },
  { name: "Hourly", cron: "0 * * * *" },
  { name: "Every 6 hours", cron: "0 */6 * * *" },
  { name: "Daily 03:00 UTC", cron: "0 3 * * *" },
  { name: "Weekly Monday 03:00 UTC", cron: "0 3 * * 1" },
] as const;
