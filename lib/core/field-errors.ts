import type { z } from "zod";

/*
 * How the API words a zod issue, field and sentence. In core so that the dashboard's forms, which
 * check a draft with the API's own schemas, say what the API would say.
 */

export type FieldError = { field: string; message: string };

/** `variations.languages[0]`: the path as the API names a field in its 422 details. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), "");
}

const typeNames: Record<string, string> = {
  int: "an integer",
  number: "a number",
  string: "a string",
  boolean: "true or false",
  array: "an array",
  object: "an object",
};

/** zod's own messages start like this; anything else was written by us for the field, and wins. */
const DEFAULT_MESSAGE = /^(Too (big|small)|Invalid|Unrecognized)/;

/** The sentence's predicate, e.g. `must start with /`: the field is its subject. */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code !== "invalid_type" && !DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      if (issue.input === null) return `must not be null (expected ${typeNames[issue.expected] ?? issue.expected})`;
      return `must be ${typeNames[issue.expected] ?? issue.expected}`;
    case "too_small":
      if (issue.origin === "array") return `must have at least ${issue.minimum} item${issue.minimum === 1 ? "" : "s"}`;
      if (issue.origin === "string") return issue.minimum === 1 ? "must not be empty" : `must be at least ${issue.minimum} characters`;
      return `must be ${issue.inclusive ? "at least" : "greater than"} ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "array") return `must have at most ${issue.maximum} items`;
      if (issue.origin === "string") return `must be at most ${issue.maximum} characters`;
      return `must be ${issue.inclusive ? "at most" : "less than"} ${issue.maximum}`;
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
    default:
      return issue.message;
  }
}

/** One readable sentence per failure, e.g. `region[1]: must be one of fr, de, …`. */
export function fieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => ({
    field: fieldPath(prefix ? [prefix, ...issue.path] : issue.path),
    message: describeIssue(issue),
  }));
}

export function summarise(errors: FieldError[]): string {
  return errors
    .slice(0, 5)
    .map((e) => (e.field ? `${e.field}: ${e.message}` : e.message))
    .join("; ")
    .concat(errors.length > 5 ? ` (and ${errors.length - 5} more)` : "");
}

/** `variations.languages[0]` → `["variations", "languages", 0]`: fieldPath undone. */
export function pathKeys(path: string): PropertyKey[] {
  return [...path.matchAll(/\[(\d+)\]|([^.[\]]+)/g)].map((match) => (match[1] !== undefined ? Number(match[1]) : match[2]!));
}

/** The value at `path` inside `value`; undefined where the path leads nowhere. */
export function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((at, key) => (at !== null && typeof at === "object" ? (at as Record<PropertyKey, unknown>)[key] : undefined), value);
}

/** Whether `path` names `field` or something inside it. */
export function isWithin(path: string, field: string): boolean {
  return path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);
}

/**
 * A predicate of the API made a sentence about a field on screen, its subject named as the owner
 * typed it: the field itself (`Must start with /.`), a list's item (`“xx” must be a language
 * tag…`), or the path below the field with items by their names (`Cookie: may not be set here…`,
 * `USD.name: is used twice…`). The dashboard shows the field's label above it, so the field's own
 * API name never appears.
 */
export function fieldSentence(fieldValue: unknown, below: readonly PropertyKey[], predicate: string): string {
  const item = below.length === 1 && typeof below[0] === "number" ? valueAt(fieldValue, below) : undefined;
  const itemText = typeof item === "string" || typeof item === "number" ? String(item) : undefined;
  // A predicate that already starts with its subject, the item or the field's value (`https://a.test/ is not on the site's domain …`), is the whole sentence.
  const subject = below.length === 0 ? fieldValue : item;
  const namesItself =
    (typeof subject === "string" || typeof subject === "number") && String(subject) !== "" && [String(subject), JSON.stringify(subject)].some((name) => predicate.startsWith(`${name} `));
  let text: string;
  if (namesItself) text = predicate;
  else if (below.length === 0) text = predicate.charAt(0).toUpperCase() + predicate.slice(1);
  else if (itemText !== undefined) text = `“${itemText}” ${predicate}`;
  else {
    const names = below.map((key, depth) => {
      if (typeof key !== "number") return String(key);
      const named = valueAt(fieldValue, below.slice(0, depth + 1));
      return named !== null && typeof named === "object" && "name" in named ? String(named.name) : `#${key + 1}`;
    });
    text = `${names.join(".")}: ${predicate}`;
  }
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Field name on screen → the sentence shown under it. */
export type Problems = Record<string, string>;

/**
 * A failure's problems under the fields a form shows (`fields`, by the API's names): each issue goes
 * under the deepest field holding it, the first one of each field kept; an issue under no field
 * keeps its own path.
 */
export function fieldProblems(error: z.ZodError, body: unknown, fields: readonly string[]): Problems {
  const problems: Problems = {};
  for (const issue of error.issues) {
    const path = fieldPath(issue.path);
    const field = fields.filter((candidate) => isWithin(path, candidate)).sort((a, b) => b.length - a.length)[0];
    const depth = field ? pathKeys(field).length : issue.path.length;
    problems[field ?? path] ??= fieldSentence(valueAt(body, issue.path.slice(0, depth)), issue.path.slice(depth), describeIssue(issue));
  }
  return problems;
}
