import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";

// The Inngest endpoint: Inngest (Cloud, self-hosted or dev server) calls the functions here.
export const { GET, POST, PUT } = serve({ client: inngest, functions });
