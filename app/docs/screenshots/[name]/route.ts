import { guideScreenshots, readGuideScreenshot } from "@/lib/docs/catalogue";

// GET /docs/screenshots/{name}.png – the dashboard's pictures the guide shows (docs/screenshots), built with the pages
export const dynamic = "force-static";
export const dynamicParams = false;

export function generateStaticParams() {
  return guideScreenshots().map((name) => ({ name }));
}

export async function GET(_request: Request, { params }: { params: Promise<{ name: string }> }) {
  const bytes = readGuideScreenshot((await params).name);
  if (!bytes) return new Response("Not found", { status: 404 });
  return new Response(new Uint8Array(bytes), { headers: { "content-type": "image/png", "cache-control": "public, max-age=3600" } });
}
