import { guideSearchIndex } from "@/lib/docs/search";

// GET /docs/search-index.json – the guide's search index, built with the pages (the guide's search box reads it)
export const dynamic = "force-static";

export function GET() {
  return new Response(guideSearchIndex(), { headers: { "content-type": "application/json" } });
}
