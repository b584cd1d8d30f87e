import { answerFromClientBudget } from "@/lib/api/methods";
import { errorResponse } from "@/lib/api/responses";

// /v1 itself and any other /v1 path: a JSON 404 rather than the HTML page.
const notFound = (request: Request) => answerFromClientBudget(request, () => errorResponse(404, "not_found", "No such endpoint: see /v1/openapi.json for the operations of this API."));

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
