/** Run statuses, in a module of their own (no imports): the dashboard's bundle takes the rule without the schemas. */
export const RUN_STATUSES = ["pending", "running", "done", "failed", "paused"] as const;

/** The one rule for an "active" run: queued or warming (one per boost, one warm per site; the database enforces it too). */
export const ACTIVE_RUN_STATUSES = ["pending", "running"] as const satisfies readonly (typeof RUN_STATUSES)[number][];

export function isActiveRun(status: string): boolean {
  return (ACTIVE_RUN_STATUSES as readonly string[]).includes(status);
}
