import type { OrganizationRecord, organizationDetail, PlanRecord } from "@/lib/accounts/operator";
import type { QueuesView } from "@/lib/jobs/queue-view";
import type { listWorkers, RegionEgress } from "@/lib/warm/workers";

/** The operator console's answer shapes, as the verbs behind /api/operator return them. */
export type { OrganizationRecord, PlanRecord, QueuesView, RegionEgress };
export type OrganizationDetail = Awaited<ReturnType<typeof organizationDetail>>;
export type WorkerRow = Awaited<ReturnType<typeof listWorkers>>[number];
