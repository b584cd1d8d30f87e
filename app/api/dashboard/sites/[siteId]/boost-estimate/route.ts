import { siteParams } from "@/lib/api/params";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { estimateBoostDraft } from "@/lib/boosts/estimate";
import { boostDraftBody } from "@/lib/core/boost-requests";

// POST /api/dashboard/sites/{siteId}/boost-estimate – the boost form's live estimate of what a run would do, before the boost is saved
export const POST = withSession({ params: siteParams, body: boostDraftBody }, async ({ ctx, params, body }) => json(await estimateBoostDraft(ctx, params.siteId, body)));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
