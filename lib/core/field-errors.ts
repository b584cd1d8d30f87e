import type { z } from "zod";

/*
 * How the API words a zod issue, field and sentence. In core so that the dashboard's forms, which
 * check a draft with the API's own schemas, say what the API would say.
 */

export type FieldError = { field: string; message: string };

/** `variations.languages[0]`: the path as the API names a field in its 422 details. */
export function fieldPath(path: readonly PropertyKey[]): string {
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
export function describeIssue(issue: z.core.$ZodIssue): string {
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
