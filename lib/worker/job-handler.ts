import type { Database } from "@/lib/db";
import type { JobName, JobPayload } from "@/lib/jobs";

/** Thrown so that the driver retries the job later; the record already shows why. */
export class RetryLaterError extends Error {}

export type JobContext = {
  db: Database;
  /** true on the last attempt: failures are then final */
  final: boolean;
  /** Aborted when the worker stops: a job that loops (the keep-warm tick) ends its loop early. */
  stopping?: AbortSignal;
};

/** A job's handler: parses nothing (the payload is parsed on entry), calls the domain, and is idempotent. */
export type JobHandler<N extends JobName> = (payload: JobPayload<N>, ctx: JobContext) => Promise<unknown>;
