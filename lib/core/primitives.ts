import { z } from "zod";
import { ERROR_CODE_NAMES, ERROR_CODES } from "./error-codes";

export const timestamp = z.string().meta({ format: "date-time", description: "ISO 8601, UTC.", example: "2026-11-22T09:30:00.000Z" });

export const errorSchema = z
  .object({
    error: z.string().meta({ description: "A sentence a user can act on." }),
    code: z.enum(ERROR_CODE_NAMES).meta({
      description: `A stable identifier to branch on (the sentence may change): ${ERROR_CODE_NAMES.map((c) => `\`${c}\` (${ERROR_CODES[c].status}): ${ERROR_CODES[c].meaning}`).join(" ")}`,
    }),
    details: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .meta({ description: "Per-field validation failures (422)." }),
    required_scope: z.string().optional().meta({ description: "The missing scope (403)." }),
  })
  .meta({ id: "Error" });

export const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** An id in a JSON body: a positive integer that fits the database's integer columns. */
export const idNumber = z.number().int().positive().max(2_147_483_647, "is out of range");

/** A positive integer in a path or query string, e.g. `/v1/sites/{id}`. */
export const idString = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, "must be a positive integer")
  .transform(Number)
  .refine((n) => n <= 2_147_483_647, "is out of range")
  .meta({ type: "integer", minimum: 1, maximum: 2_147_483_647 } as Record<string, unknown>);
