import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";
import { queuesView } from "@/lib/worker/queues";

// GET /api/operator/queues – each job queue's waiting, active and failed jobs and its oldest waiting job's age; the latest failed jobs with their errors
export const GET = withOperator({}, async ({ db }) => json(await queuesView(db)));

export const { POST, PUT, PATCH, DELETE } = otherOperatorMethods("GET");
