import { type SettingValue, type VariableName, VARIABLES } from "./variables";

export { type SettingValue, type VariableName, VARIABLES };

/**
 * The configuration: every environment variable the product reads is declared in
 * ./variables.ts and read through `setting(name)`, never through process.env directly.
 *
 * - `setting("PREHEAT_SITE_CONCURRENCY")` answers the parsed value (its default when the variable
 *   is unset or blank), reading process.env at each call: tests and operators' tools may change it
 *   while the process runs. A parsed value is kept only as long as the variable's text is the same.
 * - A value that is not valid throws a ConfigError naming the variable, the value (never a secret's)
 *   and what is expected: nothing falls back to the default silently.
 * - `checkConfig()` checks every variable at once; the server, the worker and the CLI call it first
 *   and refuse to start on a bad value.
 */

export type ConfigProblem = { name: VariableName; message: string };

export class ConfigError extends Error {
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem[]) {
    super(
      problems.length === 1
        ? `invalid configuration: ${problems[0]!.message}`
        : `invalid configuration (${problems.length} variables):\n${problems.map((problem) => `  - ${problem.message}`).join("\n")}`,
    );
    this.name = "ConfigError";
    this.problems = problems;
  }
}

export function isVariableName(name: string): name is VariableName {
  return Object.hasOwn(VARIABLES, name);
}

const plain = (markdown: string) => markdown.replace(/`/g, "");

/** The value as an error message may show it: a secret never, a URL's credentials masked. */
function displayed(name: VariableName, raw: string): string {
  const variable = VARIABLES[name];
  if (variable.secret) return `${name} (value hidden)`;
  if (variable.urlWithPassword && /@/.test(raw)) {
    try {
      if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim())) throw new Error("no authority to mask a password in");
      const url = new URL(raw.trim());
      // The user name may be a token too.
      if (url.username) url.username = "***";
      if (url.password) url.password = "***";
      return `${name}=${JSON.stringify(url.toString())}`;
    } catch {
      return `${name} (value hidden: it may hold a password)`;
    }
  }
  const shown = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
  return `${name}=${JSON.stringify(shown)}`;
}

type Reading = { raw: string | undefined; value?: unknown; problem?: ConfigProblem };

function read(name: VariableName, raw: string | undefined): Reading {
  const variable = VARIABLES[name];
  if (raw === undefined || raw.trim() === "") return { raw, value: variable.default };
  const result = variable.schema.safeParse(raw);
  if (result.success) return { raw, value: result.data };
  const reasons = [...new Set(result.error.issues.map((issue) => issue.message))].join("; ");
  const accepts = plain(variable.accepts);
  const fallback = variable.defaultText === "unset" ? "unset by default" : `default ${plain(variable.defaultText)}`;
  // "not a postgres:// … URL" already says what is expected.
  const expected = reasons.includes(accepts.replace(/^an? /, "")) ? "" : `; expected ${accepts}`;
  return { raw, problem: { name, message: `${displayed(name, raw)} is invalid: ${reasons}${expected} (${fallback}).` } };
}

const readings = new Map<VariableName, Reading>();

/** The variable's value now: its default when unset or blank; a ConfigError when its value is not valid. */
export function setting<N extends VariableName>(name: N): SettingValue<N> {
  if (!isVariableName(name)) throw new Error(`${String(name)} is not a declared configuration variable (lib/config/variables.ts).`);
  const raw = process.env[name];
  let reading = readings.get(name);
  if (!reading || reading.raw !== raw) {
    reading = read(name, raw);
    readings.set(name, reading);
  }
  if (reading.problem) throw new ConfigError([reading.problem]);
  return reading.value as SettingValue<N>;
}

/**
 * Gives an unset variable the value this process found for it at start (an embedded install's own
 * secrets key), so that every later `setting` reads it, as if the operator had set it. Refuses a value
 * the variable would not accept.
 */
export function provideSetting(name: VariableName, value: string): void {
  const reading = read(name, value);
  if (reading.problem) throw new ConfigError([reading.problem]);
  process.env[name] = value;
}

/** The value a variable takes when it is unset. */
export function settingDefault<N extends VariableName>(name: N): SettingValue<N> {
  return VARIABLES[name].default as SettingValue<N>;
}

/** Every variable checked against `env` (process.env by default): one problem per variable that is not valid. */
export function configProblems(env: Record<string, string | undefined> = process.env): ConfigProblem[] {
  return (Object.keys(VARIABLES) as VariableName[]).flatMap((name) => read(name, env[name]).problem ?? []);
}

/** Checks every variable at once; throws a ConfigError listing all the problems. */
export function checkConfig(env: Record<string, string | undefined> = process.env): void {
  const problems = configProblems(env);
  if (problems.length) throw new ConfigError(problems);
}
