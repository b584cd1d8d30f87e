import { z } from "zod";

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
/** Nine digits at most, as the query parser reads them. */
const OFFSET_MAX = 999_999_999;

const nonNegativeInteger = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a non-negative integer`)
    .transform(Number);

/** `limit` (default 20, max 100) and `offset` (default 0), shared by every list. */
export const paginationQuery = z.object({
  limit: nonNegativeInteger("limit")
    .pipe(z.number().min(1, "must be at least 1").max(PAGE_SIZE_MAX, `must be at most ${PAGE_SIZE_MAX}`))
    .optional()
    .transform((v) => v ?? PAGE_SIZE_DEFAULT)
    .meta({ type: "integer", minimum: 1, maximum: PAGE_SIZE_MAX, description: `Page size, 1 to ${PAGE_SIZE_MAX}; ${PAGE_SIZE_DEFAULT} when omitted.` } as Record<string, unknown>),
  offset: nonNegativeInteger("offset")
    .optional()
    .transform((v) => v ?? 0)
    .meta({ type: "integer", minimum: 0, maximum: OFFSET_MAX, description: "Number of items to skip; 0 when omitted." } as Record<string, unknown>),
});

export type Page = z.output<typeof paginationQuery>;

export function pageOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      data: z.array(item),
      total: z.number().int().min(0).meta({ description: "Items in all pages." }),
      limit: z.number().int(),
      offset: z.number().int(),
    })
    .meta({ id });
}
