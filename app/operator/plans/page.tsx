import type { Metadata } from "next";
import { PlansView } from "@/components/operator/plans-view";

export const metadata: Metadata = { title: "Plans · Operator" };

export default function Page() {
  return <PlansView />;
}
