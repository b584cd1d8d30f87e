import { answerFromClientBudget } from "@/lib/api/methods";
import { errorResponse } from "@/lib/api/responses";
import { UNMATCHED_ROUTE } from "@/lib/observability/requests";

// /v1 itself and any other /v1 path: a JSON 404 rather than the HTML page, under one label however many paths are asked for.
const notFound = (request: Request) =>
  answerFromClientBudget(request, () => errorResponse(404, "not_found", "No such endpoint: see /v1/openapi.json for the operations of this API."), UNMATCHED_ROUTE);

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
