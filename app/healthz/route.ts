// GET /healthz – the process is up (no key; for load balancers and process supervisors)
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
}
