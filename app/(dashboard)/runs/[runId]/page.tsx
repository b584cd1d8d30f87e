import type { Metadata } from "next";
import { RunView } from "@/components/runs/run-view";
import { getRun } from "@/lib/runs/service";
import { ownedOr404 } from "../../owned";

export const metadata: Metadata = { title: "Run" };

export default async function RunPage({ params }: { params: Promise<{ runId: string }> }) {
  const run = await ownedOr404((await params).runId, getRun);
  return <RunView initialRun={run} />;
}
