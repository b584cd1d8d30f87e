import type { Metadata } from "next";
import { LoadsTogether } from "@/components/dashboard/loads-together";
import { WorkersView } from "@/components/operator/workers-view";

export const metadata: Metadata = { title: "Workers & regions · Operator" };

export default function Page() {
  return (
    <LoadsTogether>
      <WorkersView />
    </LoadsTogether>
  );
}
