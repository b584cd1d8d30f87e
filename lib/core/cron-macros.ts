/**
 * The macros of Vixie cron (crontab(5)), each with the 5-field cron it stands for. `@reboot` has
 * none: a boost has no machine to start with.
 */
export const CRON_MACROS: Readonly<Record<string, string>> = {
  "@hourly": "0 * * * *",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@weekly": "0 0 * * 0",
  "@monthly": "0 0 1 * *",
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
};

/** The cron a macro stands for, in any case; undefined for anything else. */
export function cronOfMacro(macro: string): string | undefined {
  const key = macro.trim().toLowerCase();
  return Object.hasOwn(CRON_MACROS, key) ? CRON_MACROS[key] : undefined;
}
