import { z } from "zod";
import { idNumber } from "@/lib/core/primitives";
import { scopeSchema } from "./scopes";

/** What the dashboard sends to create a key: the same rules as the CLI's keys create. Its own module (no server code): the form checks a draft with it. */
export const createApiKeyBody = z.object({
  name: z.string().trim().min(1, "Give the key a name.").max(100, "At most 100 characters."),
  scopes: z.array(scopeSchema).min(1, "Choose at least one scope."),
  expires_at: z.iso
    .datetime({ offset: true, message: "An ISO 8601 date and time." })
    .nullable()
    .optional()
    .refine((value) => !value || Date.parse(value) > Date.now(), "The expiry date must be in the future."),
  /** The sites the key is limited to (each one of the organization's); null or absent: every site. */
  site_ids: z.array(idNumber).min(1, "Choose at least one site, or all sites.").max(1000, "At most 1000 sites.").nullable().optional(),
});
