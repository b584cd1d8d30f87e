import type { Metadata } from "next";
import { BoostHooks } from "@/components/boosts/boost-hooks";
import { BoostView } from "@/components/boosts/boost-view";
import { getBoost, toBoost } from "@/lib/boosts/service";
import { ownedOr404 } from "../../owned";

export const metadata: Metadata = { title: "Boost" };

export default async function BoostPage({ params }: { params: Promise<{ boostId: string }> }) {
  const boost = await ownedOr404((await params).boostId, (ctx, id) => getBoost(ctx, id));
  return (
    <div className="space-y-6">
      <BoostView initialBoost={toBoost(boost)} />
      <BoostHooks boostId={boost.id} />
    </div>
  );
}
