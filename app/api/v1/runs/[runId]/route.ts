import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/runs";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { getRun } from "@/lib/runs/service";

// GET /v1/runs/{runId} – one run (boost or warm) with its full summary
export const GET = withApiKey(operations.getRun, async ({ ctx, params }) => json(await getRun(ctx, params.runId)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
