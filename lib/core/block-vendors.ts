import { GUIDE_PATHS } from "./guide-paths";

/**
 * The bot protections Preheat names (lib/warm/blocked.ts reads their fingerprints): a module of its
 * own, importing only the guide's paths, so that the dashboard's bundle takes the names without the detection.
 */
export const BLOCK_VENDORS = ["cloudflare", "akamai", "imperva", "datadome", "sucuri", "aws_waf", "vercel", "human", "other"] as const;
export type BlockVendor = (typeof BLOCK_VENDORS)[number];

/** The vendor as a site owner knows it, for messages ("Blocked by Cloudflare's bot protection"). */
const BLOCK_VENDOR_NAMES: Record<BlockVendor, string> = {
  cloudflare: "Cloudflare",
  akamai: "Akamai",
  imperva: "Imperva",
  datadome: "DataDome",
  sucuri: "Sucuri",
  aws_waf: "AWS WAF",
  vercel: "Vercel",
  human: "HUMAN (PerimeterX)",
  other: "another bot protection",
};

/** "Blocked by Cloudflare's bot protection", "Blocked by a bot protection" for an unnamed one. */
export function blockedSentence(vendor: BlockVendor): string {
  return vendor === "other" ? "Blocked by a bot protection" : `Blocked by ${BLOCK_VENDOR_NAMES[vendor]}'s bot protection`;
}

/** Where the guide to letting Preheat through lives, under the service's base URL. */
export const ALLOW_LISTING_PATH = GUIDE_PATHS.botProtection;
