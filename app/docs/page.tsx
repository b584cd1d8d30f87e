import type { Metadata } from "next";
import Link from "next/link";
import { GuideLayout } from "@/components/docs/guide-page";
import { guideSections } from "@/lib/docs/catalogue";

export const metadata: Metadata = { title: "Guide" };
export const dynamic = "force-static";

/** The guide's front page: one part per reader, each page with the questions it answers. */
export default function GuideIndexPage() {
  return (
    <GuideLayout current="/docs" title="The Preheat guide">
      <p className="text-slate-700">
        Find your part: the pages for what you do with Preheat, each opening with who it is for and what it answers. The{" "}
        <Link href="/docs/api" className="text-sky-700 underline">
          API reference
        </Link>{" "}
        lists every operation.
      </p>
      {guideSections().map((section) => (
        <section key={section.id} aria-labelledby={`reader-${section.id}`} className="space-y-2">
          <h2 id={`reader-${section.id}`} className="mt-6 text-xl font-semibold">
            <Link href={`/docs/${section.id}`} className="hover:underline">
              {section.name}
            </Link>
          </h2>
          <ul className="space-y-2">
            {section.pages.map((page) => (
              <li key={page.href}>
                <Link href={page.href} className="font-medium text-sky-700 underline">
                  {page.title}
                </Link>
                <span className="block text-sm text-slate-600">{page.audience.replace(/\*\*/g, "")}</span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </GuideLayout>
  );
}
