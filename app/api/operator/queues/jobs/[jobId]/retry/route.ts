import { jobParams } from "@/lib/accounts/operator-schemas";
import { NotFoundError } from "@/lib/core/errors";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";
import { retryFailedJob } from "@/lib/worker/queues";

// POST /api/operator/queues/jobs/{jobId}/retry – puts a failed job back in its queue for one more attempt
export const POST = withOperator({ params: jobParams }, async ({ db, params }) => {
  if (!(await retryFailedJob(db, params.jobId))) throw new NotFoundError(`No failed job ${params.jobId}.`);
  return json({ id: params.jobId, state: "retry" });
});

export const { GET, PUT, PATCH, DELETE } = otherOperatorMethods("POST");
