import { BEACON_SCRIPT } from "@/lib/traffic/field/script";

// GET /beacon.js – the script site owners add to their pages (docs/guide/site-owners/beacon.md): the same bytes for every site, cacheable anywhere, loadable from any origin
export function GET(): Response {
  return new Response(BEACON_SCRIPT, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=86400, stale-while-revalidate=604800",
      "access-control-allow-origin": "*",
      "cross-origin-resource-policy": "cross-origin",
      "x-content-type-options": "nosniff",
    },
  });
}
