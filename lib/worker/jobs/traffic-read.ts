import { readTrafficSource } from "@/lib/traffic/read";
import type { JobHandler } from "../job-handler";

/** Reads a traffic source (its log's URL, or its analytics API) and stores its visits, or says on the source why not. */
export const trafficRead: JobHandler<"traffic.read"> = async ({ sourceId }, { db }) => readTrafficSource(db, sourceId);
