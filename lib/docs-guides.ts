import { readFileSync } from "node:fs";
import path from "node:path";

/** The systems a change receiver has a set-up page for (docs/change-receivers/{system}.md), in the order the index lists them. */
export const RECEIVER_GUIDES = ["shopify", "contentful", "sanity", "strapi", "netlify", "vercel", "wordpress"] as const;
export type ReceiverGuide = (typeof RECEIVER_GUIDES)[number];

/** A guide of docs/, read when the page is built: the site serves the same file the repository keeps. */
export function readGuide(file: string): { title: string; text: string } {
  const text = readFileSync(path.join(process.cwd(), "docs", file), "utf8");
  return { title: /^# (.+)$/m.exec(text)?.[1] ?? file, text };
}

/** The change receivers' guides link to each other by file; on the site, by address. */
export function receiverGuideLinks(): Record<string, string> {
  return {
    "../change-receivers.md": "/docs/change-receivers",
    ...Object.fromEntries(RECEIVER_GUIDES.map((system) => [`change-receivers/${system}.md`, `/docs/change-receivers/${system}`])),
  };
}
