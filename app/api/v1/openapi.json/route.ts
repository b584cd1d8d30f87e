import { answerFromClientBudget } from "@/lib/api/methods";
import { openApiDocument } from "@/lib/openapi/document";

// GET /v1/openapi.json – the OpenAPI 3.1 description of this API (public)
export function GET(request: Request) {
  return answerFromClientBudget(request, () => Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } }));
}
