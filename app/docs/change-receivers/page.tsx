import { readFileSync } from "node:fs";
import path from "node:path";
import type { Metadata } from "next";
import { Markdown } from "@/components/api-reference/markdown";

export const metadata: Metadata = { title: "Change receivers: warm what was just edited" };
// docs/change-receivers.md is read when the page is built: the guide is the same file the repository keeps.
export const dynamic = "force-static";

export default function ChangeReceiversPage() {
  const guide = readFileSync(path.join(process.cwd(), "docs/change-receivers.md"), "utf8");
  return (
    <article className="max-w-3xl space-y-4">
      <h1 className="text-3xl font-bold tracking-tight">Change receivers: warm what was just edited</h1>
      <Markdown text={guide} />
    </article>
  );
}
