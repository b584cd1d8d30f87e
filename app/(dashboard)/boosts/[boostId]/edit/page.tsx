import type { Metadata } from "next";
import { BoostForm } from "@/components/boosts/boost-form";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { PageHeader } from "@/components/ui/card";
import { getBoost, toBoost } from "@/lib/boosts/service";
import { ownedOr404 } from "../../../owned";
import { roleShortfall } from "../../../role-required";

export const metadata: Metadata = { title: "Edit boost" };

export default async function EditBoostPage({ params }: { params: Promise<{ boostId: string }> }) {
  const boost = toBoost(await ownedOr404((await params).boostId, (ctx, id) => getBoost(ctx, id)));
  const shortfall = await roleShortfall("admin", { href: `/boosts/${boost.id}`, label: boost.name });
  if (shortfall) return shortfall;
  return (
    <div>
      <Breadcrumb
        className="mb-2"
        trail={[
          { href: `/sites/${boost.site_id}`, label: "Site" },
          { href: `/boosts/${boost.id}`, label: boost.name },
        ]}
        current="Edit"
      />
      <PageHeader title={`Edit “${boost.name}”`} subtitle="Only the fields you change are saved. A boost cannot change while one of its runs is in progress." />
      <BoostForm siteId={boost.site_id} boost={boost} />
    </div>
  );
}
