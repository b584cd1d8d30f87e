import { toErrorResponse } from "@/lib/api/errors";
import { answer } from "@/lib/api/handler";
import { readBodyBytes } from "@/lib/api/input";
import { getDb } from "@/lib/db";
import { clientAddress } from "@/lib/auth/client-address";
import { MAX_BEACON_BYTES } from "@/lib/traffic/field/beacon-body";
import { receiveView } from "@/lib/traffic/field/receive";

/** The answer's CORS headers: a page of the site may read it (sendBeacon never does), and caches keep answers apart per page origin. */
function cors(origin: string | null): Record<string, string> {
  return origin ? { "access-control-allow-origin": origin, vary: "origin" } : {};
}

// POST /b – one page view from the beacon (docs/guide/site-owners/beacon.md): no key, only the site's own pages (Origin), sampled and rate-limited; 204, or a 4xx JSON refusal with nothing counted
export function POST(request: Request): Promise<Response> {
  return answer(request, { path: "/b" }, async () => {
    const origin = request.headers.get("origin");
    let response: Response;
    try {
      const body = await readBodyBytes(request, MAX_BEACON_BYTES);
      await receiveView(await getDb(), { body, origin, client: clientAddress(request.headers) });
      response = new Response(null, { status: 204 });
    } catch (error) {
      // Worded here rather than by answer(), so that a refusal carries the CORS headers too.
      response = toErrorResponse(error);
    }
    for (const [name, value] of Object.entries(cors(origin))) response.headers.set(name, value);
    return response;
  });
}
