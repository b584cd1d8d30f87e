import type { Metadata } from "next";
import Link from "next/link";
import { BoostForm } from "@/components/boosts/boost-form";
import { PageHeader } from "@/components/ui/card";
import { getBoost, toBoost } from "@/lib/boosts/service";
import { ownedOr404 } from "../../../owned";

export const metadata: Metadata = { title: "Edit boost" };

export default async function EditBoostPage({ params }: { params: Promise<{ boostId: string }> }) {
  const boost = toBoost(await ownedOr404((await params).boostId, (ctx, id) => getBoost(ctx, id)));
  return (
    <div>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600">
        <Link href={`/sites/${boost.site_id}`} className="hover:underline">
          Site
        </Link>
        {" / "}
        <Link href={`/boosts/${boost.id}`} className="hover:underline">
          {boost.name}
        </Link>
        {" / Edit"}
      </nav>
      <PageHeader title={`Edit “${boost.name}”`} subtitle="Only the fields you change are saved. A boost cannot change while one of its runs is in progress." />
      <BoostForm siteId={boost.site_id} boost={boost} />
    </div>
  );
}
