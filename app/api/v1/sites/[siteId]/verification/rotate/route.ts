import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/sites";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { rotateVerificationSecret } from "@/lib/sites/verification";

// POST /v1/sites/{siteId}/verification/rotate – a new Preheat-Verification secret, answered
export const POST = withApiKey(operations.rotateVerificationSecret, async ({ ctx, params }) => json({ verification_secret: await rotateVerificationSecret(ctx, params.siteId) }));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
