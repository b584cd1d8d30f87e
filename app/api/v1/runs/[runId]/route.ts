import { withApiKey } from "@/lib/api/handler";
import { runParams } from "@/lib/api/params";
import { json, otherMethods } from "@/lib/api/responses";
import { getRun } from "@/lib/runs/service";

// GET /v1/runs/{runId} – one run (boost or warm) with its full summary
export const GET = withApiKey({ scope: "runs:read", params: runParams }, async ({ ctx, params }) => json(await getRun(ctx, params.runId)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
