import type { Metadata } from "next";
import { WarmForm } from "@/components/warm/warm-form";
import { getSite, toSite } from "@/lib/sites/service";
import { ownedOr404 } from "../../../owned";
import { roleShortfall } from "../../../role-required";

export const metadata: Metadata = { title: "Warm now" };

export default async function WarmPage({ params }: { params: Promise<{ siteId: string }> }) {
  const site = await ownedOr404((await params).siteId, getSite);
  const shortfall = await roleShortfall("member", { href: `/sites/${site.id}`, label: site.domain });
  if (shortfall) return shortfall;
  return <WarmForm site={toSite(site)} />;
}
