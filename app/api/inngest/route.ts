import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { inngestConfigured } from "@/lib/worker/config";

// The Inngest endpoint: Inngest (Cloud, self-hosted or dev server) calls the functions here. Without
// Inngest configured (INNGEST_EVENT_KEY or INNGEST_DEV) the jobs run on pg-boss, and this path does not exist.
const handlers = serve({ client: inngest, functions });
const notConfigured = async () => Response.json({ error: "Inngest is not configured on this server.", code: "not_found" }, { status: 404 });

export const GET = (...args: Parameters<typeof handlers.GET>) => (inngestConfigured() ? handlers.GET(...args) : notConfigured());
export const POST = (...args: Parameters<typeof handlers.POST>) => (inngestConfigured() ? handlers.POST(...args) : notConfigured());
export const PUT = (...args: Parameters<typeof handlers.PUT>) => (inngestConfigured() ? handlers.PUT(...args) : notConfigured());
