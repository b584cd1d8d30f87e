import type { Metadata } from "next";
import { GuideMarkdown } from "@/components/docs/guide-markdown";
import { readGuide, receiverGuideLinks } from "@/lib/docs-guides";

export const metadata: Metadata = { title: "Change receivers: warm what was just edited" };
export const dynamic = "force-static";

export default function ChangeReceiversPage() {
  const { title, text } = readGuide("change-receivers.md");
  return (
    <article className="max-w-3xl space-y-4">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <GuideMarkdown text={text} links={receiverGuideLinks()} />
    </article>
  );
}
