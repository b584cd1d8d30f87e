import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { inngestConfigured } from "@/lib/jobs";

// The Inngest endpoint: Inngest (Cloud, self-hosted or dev server) calls the functions here. Without
// Inngest configured (INNGEST_EVENT_KEY or INNGEST_DEV) the jobs run on pg-boss, and this path does not exist.
const handlers = serve({ client: inngest, functions });
const notConfigured = () => Response.json({ error: "Inngest is not configured on this server.", code: "not_found" }, { status: 404 });
const whenConfigured =
  <A extends unknown[]>(handler: (...args: A) => Promise<Response>) =>
  (...args: A) =>
    inngestConfigured() ? handler(...args) : Promise.resolve(notConfigured());

export const GET = whenConfigured(handlers.GET);
export const POST = whenConfigured(handlers.POST);
export const PUT = whenConfigured(handlers.PUT);
