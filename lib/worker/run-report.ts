import { describeTrigger } from "@/lib/core/run-trigger";
import { eq } from "drizzle-orm";
import { boosts, runs, sites } from "@/drizzle/schema";
import { organizationOwner } from "@/lib/accounts/organizations";
import type { Database } from "@/lib/db";
import { queueRunReport } from "@/lib/email/send";
import { sendJob } from "@/lib/jobs";
import { publicBaseUrl } from "@/lib/config/base-url";
import { breakdownOf, runViews } from "@/lib/runs/service";
import { weekFreshShare } from "@/lib/freshness/history";

const ENDED = ["done", "failed", "paused"];

/**
 * When a boost run has ended and its boost asks for reports, queues one report e-mail to the
 * account's owner (the outbox row is unique per run, so this may be called more than once).
 */
export async function reportRunEnd(db: Database, runId: number): Promise<void> {
  const [found] = await db
    .select({ run: runs, boost: boosts, site: sites })
    .from(runs)
    .innerJoin(sites, eq(sites.id, runs.siteId))
    .innerJoin(boosts, eq(boosts.id, runs.boostId))
    .where(eq(runs.id, runId));
  if (!found || !ENDED.includes(found.run.status) || !found.boost.reportEmailEnabled) return;
  const { run, boost, site } = found;
  const owner = await organizationOwner(db, site.accountId);
  if (!owner) return;
  // As GET /v1/runs/{id} shows it: the final summary and breakdown once kept, summed otherwise.
  const [[view], { pops: popsBreakdown }, freshShare] = await Promise.all([
    runViews(db, [run]),
    breakdownOf(db, run),
    // A keep-warm boost is there to keep pages fresh: its report says how it went over the week.
    boost.keepWarm ? weekFreshShare(db, site.id) : undefined,
  ]);
  const email = await queueRunReport(db, {
    accountId: site.accountId,
    to: owner.email,
    runId: run.id,
    props: {
      boostName: boost.name,
      siteDomain: site.domain,
      runId: run.id,
      runNumber: run.number,
      status: run.status as "done" | "failed" | "paused",
      statusMessage: run.statusMessage,
      startedBy: describeTrigger(view!.common.triggered_by),
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
      summary: view!.common.summary,
      popsBreakdown,
      regions: run.regions,
      failureSamples: run.failureSamples.slice(0, 5),
      ...(freshShare !== undefined ? { weekFreshShare: freshShare } : {}),
      ...(view!.common.visit_share ? { visitShare: view!.common.visit_share } : {}),
      runUrl: `${publicBaseUrl()}/runs/${run.id}`,
    },
  });
  if (email.status === "pending") await sendJob("email.deliver", { emailId: email.id, siteId: site.id });
}
