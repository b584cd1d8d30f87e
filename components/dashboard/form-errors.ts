import { useState } from "react";
import type { z } from "zod";
import { fieldProblems, fieldSentence, isWithin, type Problems, pathKeys, valueAt } from "@/lib/core/field-errors";
import { ApiError } from "./api";

/** The sentence every form shows under its buttons while a field is marked. */
const CORRECT_THE_FIELDS = "Please correct the fields marked above.";

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Of the fields on screen, the deepest one holding `path`; undefined when none does. */
function fieldOf(path: string, fields: readonly string[]): string | undefined {
  return fields.filter((field) => isWithin(path, field)).sort((a, b) => b.length - a.length)[0];
}

/** A form's own check of `body` by the API's schema of it, each problem worded for the field on screen that holds it. */
export function checkWith(schema: z.ZodType, body: unknown, fields: readonly string[]): () => Problems {
  return () => {
    const parsed = schema.safeParse(body);
    return parsed.error ? fieldProblems(parsed.error, body, fields) : {};
  };
}

/**
 * What a form shows as wrong, the same way in every form of the dashboard: the form's own check of
 * what it would send, once a submit was tried, recomputed as the owner types; and the server's
 * refusal of what it did send, each field's part shown only while that field still holds the value
 * refused. So an error goes as soon as its field is fixed, and the summary goes with the last one.
 * Every message is a sentence about the field on screen (lib/core/field-errors.ts words them), shown
 * once: the banner (`notice`) only carries what no field on screen can show.
 *
 * `body` is what the form would send now, by the API's field names; `fields` are the API names of
 * the fields on screen; `check` gives the form's own problems of `body`, by those names.
 */
export function useFormErrors<Body>(body: Body, fields: readonly string[], check?: () => Problems) {
  const [tried, setTried] = useState(false);
  const [refusal, setRefusal] = useState<{ sent: Body; error: unknown } | null>(null);

  const own: Problems = tried && check ? check() : {};
  const details = refusal?.error instanceof ApiError ? refusal.error.details : [];
  const stillSent = (path: readonly PropertyKey[]) => refusal !== null && same(valueAt(refusal.sent, path), valueAt(body, path));

  const fromServer = (field: string): string | undefined => {
    const detail = details.find((candidate) => fieldOf(candidate.field, fields) === field);
    const at = pathKeys(field);
    if (!detail || !stillSent(at)) return undefined;
    return fieldSentence(valueAt(refusal?.sent, at), pathKeys(detail.field).slice(at.length), detail.message);
  };
  const error = (field: string): string | undefined => own[field] ?? fromServer(field);

  const unclaimed = details.filter((detail) => !fieldOf(detail.field, fields));
  const marked = Object.keys(own).length > 0 || fields.some((field) => fromServer(field) !== undefined);
  let notice: string | null = null;
  // What no field shows stays until the form changes: it was said of what was sent.
  if (refusal && stillSent([])) {
    if (unclaimed.length) notice = unclaimed.map((detail) => fieldSentence(undefined, pathKeys(detail.field), detail.message)).join(" ");
    else if (!details.length) notice = refusal.error instanceof Error ? refusal.error.message : String(refusal.error);
  }

  return {
    /** The sentence under `field`, if anything is wrong with it. */
    error,
    /** `CORRECT_THE_FIELDS` while any field is marked. */
    summary: marked ? CORRECT_THE_FIELDS : null,
    /** The refusal's sentence that no field on screen shows. */
    notice,
    /** A submit is tried: true when the form's own check lets it go. */
    attempt(): boolean {
      setTried(true);
      setRefusal(null);
      return !check || Object.keys(check()).length === 0;
    },
    /** The server refused `sent` with `error`. */
    refused(sent: Body, error: unknown) {
      setRefusal({ sent, error });
    },
    /** Forget the attempt and its refusal: something else answered what the form was for. */
    clear() {
      setTried(false);
      setRefusal(null);
    },
  };
}
