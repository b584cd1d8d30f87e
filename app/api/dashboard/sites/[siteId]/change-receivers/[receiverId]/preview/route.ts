import { otherMethods } from "@/lib/api/methods";
import { siteReceiverParams } from "@/lib/api/params";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { previewTemplates } from "@/lib/changes/preview";
import { previewTemplatesBody } from "@/lib/changes/receiver-schemas";

// POST /api/dashboard/sites/{siteId}/change-receivers/{receiverId}/preview – URL templates (being edited, or the receiver's own) against the last payload received; changes nothing, so a viewer may ask
export const POST = withSession({ params: siteReceiverParams, body: previewTemplatesBody }, async ({ ctx, params, body }) =>
  json(await previewTemplates(ctx, params.siteId, params.receiverId, body.url_templates)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
