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

/** The traffic guides, by the address they are served at (/docs/traffic/{guide}). */
export const TRAFFIC_GUIDES = { logs: "traffic-logs.md", analytics: "traffic-analytics.md" } as const;
export type TrafficGuide = keyof typeof TRAFFIC_GUIDES;

/** The traffic guides link to each other by file; on the site, by address. */
export function trafficGuideLinks(): Record<string, string> {
  return Object.fromEntries(Object.entries(TRAFFIC_GUIDES).map(([guide, file]) => [file, `/docs/traffic/${guide}`]));
}
