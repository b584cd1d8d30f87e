import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { GuideMarkdown } from "@/components/docs/guide-markdown";
import { GuideLayout } from "@/components/docs/guide-page";
import { everyGuidePage, guidePageAt, resolveGuideLink } from "@/lib/docs/catalogue";

// The guide's Markdown (docs/guide/…) is read when the pages are built.
export const dynamic = "force-static";
export const dynamicParams = false;

export function generateStaticParams() {
  return everyGuidePage().map((page) => ({ slug: page.href.replace(/^\/docs\//, "").split("/") }));
}

export async function generateMetadata({ params }: { params: Promise<{ slug: string[] }> }): Promise<Metadata> {
  const page = guidePageAt((await params).slug);
  return page ? { title: page.title } : {};
}

/** One page of the guide, as the repository keeps it. */
export default async function GuidePage({ params }: { params: Promise<{ slug: string[] }> }) {
  const page = guidePageAt((await params).slug);
  if (!page) notFound();
  return (
    <GuideLayout current={page.href} title={page.title} audience={page.audience}>
      <GuideMarkdown text={page.body} resolve={(href) => resolveGuideLink(page.file, href)} />
    </GuideLayout>
  );
}
