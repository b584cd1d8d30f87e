import { Inngest } from "inngest";

/** Reads INNGEST_EVENT_KEY / INNGEST_SIGNING_KEY / INNGEST_DEV / INNGEST_BASE_URL from the environment. */
export const inngest = new Inngest({ id: "preheat" });

export const eventName = (job: string) => `preheat/${job}`;
