import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";
import { listWorkers, regionsWithEgress } from "@/lib/warm/workers";

// GET /api/operator/workers – the workers that reported in within a day (regions, last report, calls in flight) and how each region's calls leave
export const GET = withOperator({}, async ({ db }) => {
  const [workers, regions] = await Promise.all([listWorkers(db), regionsWithEgress(db)]);
  return json({ workers, regions });
});

export const { POST, PUT, PATCH, DELETE } = otherOperatorMethods("GET");
