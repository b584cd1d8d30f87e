import { z } from "zod";
import { createApiKeyBody } from "@/lib/auth/create-key-body";
import { paginationQuery } from "@/lib/core/pagination";
import { idNumber, idString } from "@/lib/core/primitives";

/*
 * What the operator console's routes (/api/operator/…) accept: one schema per input, shared by the
 * route that parses it and nothing else (the CLI reads flags).
 */

export const organizationParams = z.object({ organizationId: idString });

/** `q`: part of an organization's name or of a member's e-mail address. */
export const organizationsQuery = paginationQuery.extend({ q: z.string().trim().max(200, "q: at most 200 characters").optional() });

/** null: no plan, the service's configuration. */
export const organizationPlanBody = z.object({ plan_id: idNumber.nullable() });

export const planParams = z.object({ planId: idString });

/** pg-boss job ids are UUIDs. */
export const jobParams = z.object({ jobId: z.uuid("must be a job id (a UUID)") });

const emailAddress = z.string().trim().toLowerCase().pipe(z.email("must be an e-mail address"));

export const keysQuery = z.object({ email: emailAddress });

/** A key for the user of `email` (created with an organization of its own if new), as `keys create --email` makes it. */
export const operatorKeyBody = createApiKeyBody.extend({
  email: emailAddress,
  name: createApiKeyBody.shape.name.optional(),
});

export const emailsQuery = z.object({
  to: emailAddress,
  last: z
    .string()
    .regex(/^\d{1,3}$/, "last must be a whole number from 1 to 100")
    .transform(Number)
    .pipe(z.number().min(1, "last must be at least 1").max(100, "last must be at most 100"))
    .optional()
    .transform((value) => value ?? 10),
});
