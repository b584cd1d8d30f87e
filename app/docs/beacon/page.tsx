import type { Metadata } from "next";
import { Markdown } from "@/components/api-reference/markdown";
import { readGuide } from "@/lib/docs-guides";

export const metadata: Metadata = { title: "The beacon: what your visitors get from the CDN" };
// docs/beacon.md is read when the page is built (readGuide).
export const dynamic = "force-static";

export default function BeaconPage() {
  const { title, text } = readGuide("beacon.md");
  return (
    <article className="max-w-3xl space-y-4">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <Markdown text={text.replace(/^# .+\n/, "")} />
    </article>
  );
}
