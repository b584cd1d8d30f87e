import { randomBytes } from "node:crypto";
import { Parser } from "htmlparser2";
import { dnsChallengeName } from "@/lib/core/dns-challenge";
import { FetchError, guardedFetch } from "@/lib/fetch";
import { dnsProof, type MethodOutcome } from "./dns-proof";

type OwnershipProof = { method: "html_file" | "meta_tag"; url: string } | { method: "dns_txt"; record: string };
export type OwnershipCheck = { proof: OwnershipProof } | { problem: string };

const PAGE_LIMIT = 2 * 1024 * 1024;
const TIMEOUT_MS = 10_000;

/** Elements that may stand in a `<head>`; any other element, or text, starts the body (the HTML parsing rules). */
const HEAD_ELEMENTS = new Set(["base", "basefont", "bgsound", "link", "meta", "noscript", "script", "style", "template", "title", "head", "html"]);
/** Elements whose content is no markup of the page: a tag written inside them is not a tag. */
const INERT_ELEMENTS = new Set(["noscript", "script", "style", "template", "title"]);

/**
 * True when a real `<meta name="service-token" content="{token}">` stands in the document's head:
 * not in the body, not after whatever implicitly starts the body, not inside a comment, a script,
 * a template or a noscript, where a page that repeats what it was asked could have put it.
 */
export function headHasTokenMeta(html: string, token: string): boolean {
  let found = false;
  let inBody = false;
  let inert = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (inBody) return;
        if (!HEAD_ELEMENTS.has(name)) {
          inBody = true;
          return;
        }
        if (INERT_ELEMENTS.has(name)) inert++;
        else if (name === "meta" && inert === 0 && attributes.name?.trim().toLowerCase() === "service-token" && attributes.content?.trim() === token) found = true;
      },
      onclosetag(name) {
        if (INERT_ELEMENTS.has(name) && inert > 0) inert--;
        if (name === "head") inBody = true;
      },
      ontext(text) {
        if (inert === 0 && text.trim() !== "") inBody = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

/** A file name of the token's shape that no site has: what the site answers for a file that does not exist. */
function controlName(): { name: string; stem: string; marker: string } {
  const marker = randomBytes(16).toString("hex");
  return { name: `preheat-${marker}.html`, stem: `preheat-${marker}`, marker };
}

/**
 * The token file proves ownership only against a control: a random missing file of the same shape
 * is always requested too. The file passes when it answers 200 and the control does not; or when
 * its whole body is the token (Google's rule for its verification file), unless the control's whole
 * body is its own name (a site that answers any file with its name); or when it contains the token
 * and the control, answered 200 too, does not repeat its own name (a site that serves one page for
 * every path). A site that answers 200 and repeats the address (a soft 404, a search page, a
 * single-page app) has the token somewhere in the page it answers for the file: only a file that
 * holds nothing else proves ownership there.
 */
async function fileProof(origin: string, token: string): Promise<MethodOutcome> {
  const control = controlName();
  const [file, missing] = await Promise.all([
    guardedFetch(`${origin}/${token}.html`, { timeoutMs: TIMEOUT_MS, maxBytes: PAGE_LIMIT }),
    guardedFetch(`${origin}/${control.name}`, { timeoutMs: TIMEOUT_MS, maxBytes: PAGE_LIMIT }),
  ]);
  if (file.status !== 200) return { proven: false, why: `/${token}.html answered ${file.status}, not 200` };
  if (missing.status !== 200) return { proven: true };
  const fileBody = file.body.toString("utf8");
  const missingBody = missing.body.toString("utf8");
  const exact = fileBody.trim() === token;
  if (exact && missingBody.trim() !== control.stem) return { proven: true };
  if (exact) {
    return { proven: false, why: "the site answers any file that does not exist with its own name, so the token file proves nothing: use the meta tag or the DNS record" };
  }
  const echoes = missingBody.includes(control.marker);
  if (!echoes && fileBody.includes(token)) return { proven: true };
  if (echoes) {
    return {
      proven: false,
      why: `the site answers 200 for files that do not exist and repeats their address in the page, so only a file whose whole content is the token proves ownership there, and /${token}.html holds more: publish the file with the token as its only content, or use the meta tag or the DNS record`,
    };
  }
  return {
    proven: false,
    why: "the site answers 200 for files that do not exist, so the token file proves nothing: publish the file with the token as its only content, or use the meta tag or the DNS record",
  };
}

async function metaProof(origin: string, token: string): Promise<MethodOutcome> {
  const page = await guardedFetch(`${origin}/`, { timeoutMs: TIMEOUT_MS, maxBytes: PAGE_LIMIT, headers: { accept: "text/html" } });
  if (page.status >= 400) return { proven: false, why: `the homepage answered ${page.status}` };
  if (headHasTokenMeta(page.body.toString("utf8"), token)) return { proven: true };
  return { proven: false, why: `the homepage's <head> has no <meta name="service-token" content="${token}">` };
}

/**
 * Tries HTTPS, then HTTP; on each, the token file first, then the homepage meta tag; then the DNS
 * TXT record, which needs no answer from the site (a site not serving yet can prove ownership with
 * it). A site last proven by its DNS record (`lastMethod`, for the rechecks) is looked up first, so
 * that its rechecks send it no request while the record holds. When none proves ownership, the
 * problem names each method and why it failed, the HTTP methods on the first scheme that answered.
 */
export async function checkOwnership(domain: string, token: string, lastMethod?: string | null): Promise<OwnershipCheck> {
  const dnsFirst = lastMethod === "dns_txt" ? await dnsProof(domain, token) : undefined;
  if (dnsFirst?.proven) return { proof: { method: "dns_txt", record: dnsChallengeName(domain) } };
  const unreachable: string[] = [];
  let firstAnswered: string | undefined;
  for (const scheme of ["https", "http"] as const) {
    const origin = `${scheme}://${domain}`;
    try {
      const file = await fileProof(origin, token);
      if (file.proven) return { proof: { method: "html_file", url: `${origin}/${token}.html` } };
      const meta = await metaProof(origin, token);
      if (meta.proven) return { proof: { method: "meta_tag", url: `${origin}/` } };
      firstAnswered ??= `Ownership not proven over ${scheme.toUpperCase()}. Token file: ${file.why}. Meta tag: ${meta.why}.`;
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      unreachable.push(`${scheme.toUpperCase()}: ${error.message}`);
    }
  }
  const dns = dnsFirst ?? (await dnsProof(domain, token));
  if (dns.proven) return { proof: { method: "dns_txt", record: dnsChallengeName(domain) } };
  const http = unreachable.length === 2 ? `The site could not be reached. ${unreachable.join("; ")}.` : (firstAnswered ?? "Ownership not proven.");
  return { problem: `${http} DNS TXT record: ${dns.why}.` };
}
