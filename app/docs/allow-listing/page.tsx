import { readFileSync } from "node:fs";
import path from "node:path";
import type { Metadata } from "next";
import { Markdown } from "@/components/api-reference/markdown";

export const metadata: Metadata = { title: "Let Preheat through your firewall" };
// docs/allow-listing.md is read when the page is built: the guide is the same file the repository keeps.
export const dynamic = "force-static";

export default function AllowListingPage() {
  const guide = readFileSync(path.join(process.cwd(), "docs/allow-listing.md"), "utf8");
  return (
    <article className="max-w-3xl space-y-4">
      <h1 className="text-3xl font-bold tracking-tight">Let Preheat through your firewall</h1>
      <Markdown text={guide} />
    </article>
  );
}
