import { setting } from "@/lib/config";

/** The address people open Preheat at: links in e-mails, sign-in redirects and console hints use it. */
export function publicBaseUrl(): string {
  return setting("PREHEAT_BASE_URL") ?? `http://localhost:${setting("PORT")}`;
}
