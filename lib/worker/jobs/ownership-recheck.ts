import { organizationOwner } from "@/lib/accounts/organizations";
import type { Database } from "@/lib/db";
import { queueEmail } from "@/lib/email/send";
import { sendJob } from "@/lib/jobs";
import { publicBaseUrl } from "@/lib/config/base-url";
import { recheckOwnership, unvalidatesAt } from "@/lib/sites/recheck";
import type { SiteRow } from "@/lib/sites/site-row";
import { UNVALIDATED_LIMITS } from "@/lib/sites/unvalidated-limits";
import type { JobHandler } from "../job-handler";

/** Looks for a validated site's ownership proof again, and tells the owner when it went missing or the site lost its validation. */
export const ownershipRecheck: JobHandler<"ownership.recheck"> = async ({ siteId }, { db }) => {
  const result = await recheckOwnership(db, siteId);
  if (result.outcome === "proof_lost" || result.outcome === "unvalidated") await tellOwner(db, result.site, result.outcome);
  return { outcome: result.outcome };
};

async function tellOwner(db: Database, site: SiteRow, outcome: "proof_lost" | "unvalidated"): Promise<void> {
  const owner = await organizationOwner(db, site.accountId);
  if (!owner || !site.ownershipLostAt) return;
  const common = { domain: site.domain, problem: site.ownershipProblem ?? "", siteUrl: `${publicBaseUrl()}/sites/${site.id}` };
  // Once per loss of the proof: a proof that comes back and goes again is news again.
  const lost = site.ownershipLostAt.getTime();
  const email =
    outcome === "proof_lost"
      ? await queueEmail(db, {
          accountId: site.accountId,
          dedupeKey: `ownership-lost:${site.id}:${lost}`,
          to: owner.email,
          template: "ownership-lost",
          props: { ...common, unvalidatesAt: unvalidatesAt(site.ownershipLostAt).toISOString() },
        })
      : await queueEmail(db, {
          accountId: site.accountId,
          dedupeKey: `ownership-revoked:${site.id}:${lost}`,
          to: owner.email,
          template: "ownership-revoked",
          props: { ...common, maxUrlsPerRun: UNVALIDATED_LIMITS.urlsPerRun },
        });
  if (email.status === "pending") await sendJob("email.deliver", { emailId: email.id });
}
