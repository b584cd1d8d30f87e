import type { Metadata } from "next";
import { WarmForm } from "@/components/warm/warm-form";
import { getSite, toSite } from "@/lib/sites/service";
import { ownedOr404 } from "../../../owned";

export const metadata: Metadata = { title: "Warm now" };

export default async function WarmPage({ params }: { params: Promise<{ siteId: string }> }) {
  const site = await ownedOr404((await params).siteId, getSite);
  return <WarmForm site={toSite(site)} />;
}
