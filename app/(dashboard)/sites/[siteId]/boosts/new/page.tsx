import type { Metadata } from "next";
import { BoostForm } from "@/components/boosts/boost-form";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { PageHeader } from "@/components/ui/card";
import { getSite, toSite } from "@/lib/sites/service";
import { ownedOr404 } from "../../../../owned";
import { roleShortfall } from "../../../../role-required";

export const metadata: Metadata = { title: "New boost" };

export default async function NewBoostPage({ params }: { params: Promise<{ siteId: string }> }) {
  const site = toSite(await ownedOr404((await params).siteId, getSite));
  const shortfall = await roleShortfall("admin", { href: `/sites/${site.id}`, label: site.domain });
  if (shortfall) return shortfall;
  return (
    <div>
      <Breadcrumb className="mb-2" trail={[{ href: `/sites/${site.id}`, label: site.domain }]} current="New boost" />
      <PageHeader
        title="New boost"
        subtitle={
          site.validated ? (
            <>A warming campaign for {site.domain}: sitemaps or a CSV file, on demand or on a schedule.</>
          ) : (
            <>{site.domain} is not validated yet: its boosts warm at most 10 URLs until it is.</>
          )
        }
      />
      <BoostForm siteId={site.id} />
    </div>
  );
}
