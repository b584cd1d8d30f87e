import { eventName, inngest } from "./client";
import { type JobName, type JobPayload, installJobDriver, jobKey } from "@/lib/jobs";

/** Events go to Inngest, which calls the functions served at /api/inngest. */
export function installInngestDriver(): void {
  installJobDriver({
    async send<N extends JobName>(name: N, payload: JobPayload<N>) {
      await inngest.send({ name: eventName(name), data: payload, id: `${jobKey(name, payload)}:${Date.now()}` });
    },
  });
}
