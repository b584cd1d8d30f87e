import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { GuideMarkdown } from "@/components/docs/guide-markdown";
import { readGuide, TRAFFIC_GUIDES, type TrafficGuide, trafficGuideLinks } from "@/lib/docs-guides";

export const dynamic = "force-static";
export const dynamicParams = false;

export function generateStaticParams() {
  return Object.keys(TRAFFIC_GUIDES).map((guide) => ({ guide }));
}

const isGuide = (guide: string): guide is TrafficGuide => Object.hasOwn(TRAFFIC_GUIDES, guide);

export async function generateMetadata({ params }: { params: Promise<{ guide: string }> }): Promise<Metadata> {
  const { guide } = await params;
  return isGuide(guide) ? { title: readGuide(TRAFFIC_GUIDES[guide]).title } : {};
}

/** The traffic guides (docs/traffic-logs.md, docs/traffic-analytics.md…), served as the repository keeps them. */
export default async function TrafficGuidePage({ params }: { params: Promise<{ guide: string }> }) {
  const { guide } = await params;
  if (!isGuide(guide)) notFound();
  const { title, text } = readGuide(TRAFFIC_GUIDES[guide]);
  return (
    <article className="max-w-3xl space-y-4">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <GuideMarkdown text={text} links={trafficGuideLinks()} />
    </article>
  );
}
