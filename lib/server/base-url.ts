/** The address people open Preheat at: links in e-mails, sign-in redirects and console hints use it. */
export function publicBaseUrl(): string {
  return (process.env.PREHEAT_BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");
}
