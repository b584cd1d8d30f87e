import type { Metadata } from "next";
import { QueuesView } from "@/components/operator/queues-view";

export const metadata: Metadata = { title: "Queues · Operator" };

export default function Page() {
  return <QueuesView />;
}
