import { withApiKey } from "@/lib/api/handler";
import { RequestError } from "@/lib/api/errors";
import { streamedBody } from "@/lib/api/input";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/traffic";
import { json } from "@/lib/api/responses";
import { setting } from "@/lib/config";
import { uploadAccessLog } from "@/lib/traffic/read";

// POST /v1/sites/{siteId}/traffic-sources/{sourceId}/upload – an access log, read as it streams in
export const POST = withApiKey(operations.uploadTrafficLog, async ({ ctx, params, request }) => {
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    throw new RequestError(415, "Send the log's bytes as the body (curl --data-binary @access.log), not as a form upload.");
  }
  return json(await uploadAccessLog(ctx, params.siteId, params.sourceId, streamedBody(request, setting("PREHEAT_TRAFFIC_UPLOAD_MAX_BYTES"))));
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
