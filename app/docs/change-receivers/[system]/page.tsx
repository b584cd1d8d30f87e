import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { GuideMarkdown } from "@/components/docs/guide-markdown";
import { RECEIVER_GUIDES, type ReceiverGuide, readGuide, receiverGuideLinks } from "@/lib/docs-guides";

export const dynamicParams = false;

export function generateStaticParams() {
  return RECEIVER_GUIDES.map((system) => ({ system }));
}

type Props = { params: Promise<{ system: string }> };

function guideOf(system: string) {
  if (!(RECEIVER_GUIDES as readonly string[]).includes(system)) notFound();
  return readGuide(`change-receivers/${system as ReceiverGuide}.md`);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: guideOf((await params).system).title };
}

export default async function ReceiverGuidePage({ params }: Props) {
  const { title, text } = guideOf((await params).system);
  return (
    <article className="max-w-3xl space-y-4">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <GuideMarkdown text={text} links={receiverGuideLinks()} />
    </article>
  );
}
