import type { Metadata } from "next";
import { Markdown } from "@/components/api-reference/markdown";
import { readGuide } from "@/lib/docs-guides";

export const metadata: Metadata = { title: "Let Preheat through your firewall" };
// docs/allow-listing.md is read when the page is built (readGuide).
export const dynamic = "force-static";

export default function AllowListingPage() {
  const { text: guide } = readGuide("allow-listing.md");
  return (
    <article className="max-w-3xl space-y-4">
      <h1 className="text-3xl font-bold tracking-tight">Let Preheat through your firewall</h1>
      <Markdown text={guide} />
    </article>
  );
}
