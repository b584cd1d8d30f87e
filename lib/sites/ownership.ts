import { randomBytes } from "node:crypto";
import { Parser } from "htmlparser2";
import { FetchError, guardedFetch } from "@/lib/fetch";

export type OwnershipProof = { method: "html_file" | "meta_tag"; url: string };
export type OwnershipCheck = { proof: OwnershipProof } | { problem: string };

export const TOKEN_NOT_FOUND = "Validation token not found on the site.";
const PAGE_LIMIT = 2 * 1024 * 1024;
const TIMEOUT_MS = 10_000;

/** True when a `<meta name="service-token" content="{token}">` appears before the body starts. */
export function headHasTokenMeta(html: string, token: string): boolean {
  let found = false;
  let inBody = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "body") inBody = true;
        if (inBody || name !== "meta") return;
        if (attributes.name?.trim().toLowerCase() === "service-token" && attributes.content?.trim() === token) found = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

async function fileProof(origin: string, token: string): Promise<boolean> {
  const file = await guardedFetch(`${origin}/${token}.html`, { timeoutMs: TIMEOUT_MS, maxBytes: PAGE_LIMIT });
  if (file.status !== 200) return false;
  if (file.body.toString("utf8").includes(token)) return true;
  // A site that answers 200 for any path proves nothing: only trust the file if a random one is missing.
  const control = await guardedFetch(`${origin}/preheat-${randomBytes(8).toString("hex")}.html`, { timeoutMs: TIMEOUT_MS, maxBytes: PAGE_LIMIT });
  return control.status !== 200;
}

async function metaProof(origin: string, token: string): Promise<boolean> {
  const page = await guardedFetch(`${origin}/`, { timeoutMs: TIMEOUT_MS, maxBytes: PAGE_LIMIT, headers: { accept: "text/html" } });
  return page.status < 400 && headHasTokenMeta(page.body.toString("utf8"), token);
}

/** Tries HTTPS, then HTTP; on each, the token file first, then the homepage meta tag. */
export async function checkOwnership(domain: string, token: string): Promise<OwnershipCheck> {
  const unreachable: string[] = [];
  for (const scheme of ["https", "http"] as const) {
    const origin = `${scheme}://${domain}`;
    try {
      if (await fileProof(origin, token)) return { proof: { method: "html_file", url: `${origin}/${token}.html` } };
      if (await metaProof(origin, token)) return { proof: { method: "meta_tag", url: `${origin}/` } };
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      unreachable.push(`${scheme.toUpperCase()}: ${error.message}`);
    }
  }
  if (unreachable.length === 2) return { problem: `The site could not be reached. ${unreachable.join("; ")}.` };
  return { problem: TOKEN_NOT_FOUND };
}
