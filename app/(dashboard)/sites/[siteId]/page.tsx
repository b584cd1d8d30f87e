import type { Metadata } from "next";
import { LoadsTogether } from "@/components/dashboard/loads-together";
import { SiteView } from "@/components/sites/site-view";
import { maxSiteConcurrency } from "@/lib/sites/pace";
import { getSite, toSite } from "@/lib/sites/service";
import { ownedOr404 } from "../../owned";

export const metadata: Metadata = { title: "Site" };

export default async function SitePage({ params }: { params: Promise<{ siteId: string }> }) {
  const site = await ownedOr404((await params).siteId, getSite);
  return (
    <LoadsTogether>
      <SiteView initialSite={toSite(site)} maxConcurrency={maxSiteConcurrency()} />
    </LoadsTogether>
  );
}
