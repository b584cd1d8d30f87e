import type { Metadata } from "next";
import { LoadsTogether } from "@/components/dashboard/loads-together";
import { PlansView } from "@/components/operator/plans-view";

export const metadata: Metadata = { title: "Plans · Operator" };

export default function Page() {
  return (
    <LoadsTogether>
      <PlansView />
    </LoadsTogether>
  );
}
