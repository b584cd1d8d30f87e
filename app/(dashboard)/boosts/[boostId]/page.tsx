import type { Metadata } from "next";
import { BoostView } from "@/components/boosts/boost-view";
import { getBoost, toBoost } from "@/lib/boosts/service";
import { ownedOr404 } from "../../owned";

export const metadata: Metadata = { title: "Boost" };

export default async function BoostPage({ params }: { params: Promise<{ boostId: string }> }) {
  const boost = await ownedOr404((await params).boostId, (ctx, id) => getBoost(ctx, id));
  return <BoostView initialBoost={toBoost(boost)} />;
}
