import { errorResponse } from "@/lib/api/responses";
import { withOperator } from "@/lib/api/session-handler";

// Any other path under /api/operator: 404, to whoever is not an operator exactly as the console's own routes answer them.
const unknown = withOperator({}, async () => errorResponse(404, "not_found", "No such operator route."));

export { unknown as DELETE, unknown as GET, unknown as PATCH, unknown as POST, unknown as PUT };
