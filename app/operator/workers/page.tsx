import type { Metadata } from "next";
import { WorkersView } from "@/components/operator/workers-view";

export const metadata: Metadata = { title: "Workers & regions · Operator" };

export default function Page() {
  return <WorkersView />;
}
