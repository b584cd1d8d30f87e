import { getDb } from "@/lib/db";
import { readiness } from "@/lib/observability/service-state";

// GET /readyz – 200 when the database and the job engine answer, 503 otherwise (no key; take the server out of rotation on 503)
export const dynamic = "force-dynamic";

export async function GET() {
  const { ready, checks } = await readiness(getDb);
  return Response.json({ status: ready ? "ready" : "unavailable", checks }, { status: ready ? 200 : 503, headers: { "cache-control": "no-store" } });
}
