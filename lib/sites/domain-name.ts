import { InvalidError } from "@/lib/core/errors";

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** The API's refusal of a domain: its message names the field, its detail is the predicate a form shows under it. */
function refuse(predicate: string): InvalidError {
  return new InvalidError(`domain: ${predicate}.`, [{ field: "domain", message: predicate }]);
}

/**
 * Turns what a user typed (`https://Example.com/`) into the stored domain (`example.com`):
 * a host name with an optional port, nothing else.
 */
export function normaliseDomain(input: string): string {
  let value = input.trim().replace(/^https?:\/\//i, "");
  value = value.replace(/\/$/, "");
  if (!value) throw refuse("is required, e.g. example.com");
  if (/[/?#@\s\\]/.test(value)) {
    throw refuse(`${JSON.stringify(input)} must be a bare host name such as example.com, without a path, query, credentials or spaces`);
  }
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    throw refuse(`${JSON.stringify(input)} is not a valid host name`);
  }
  const host = url.hostname; // lower-cased, IDNs in punycode
  const labels = host.split(".");
  const valid = host.length <= 253 && labels.length >= 2 && labels.every((label) => LABEL.test(label)) && TOP_LEVEL.test(labels[labels.length - 1]!);
  if (!valid) throw refuse(`${JSON.stringify(input)} is not a valid host name (IP addresses are not accepted)`);
  const port = value.match(/:(\d+)$/)?.[1];
  if (value.includes(":") && !port) throw refuse(`${JSON.stringify(input)} has an invalid port`);
  if (port && (Number(port) < 1 || Number(port) > 65535)) throw refuse(`port ${port} is out of range`);
  return url.port ? `${host}:${url.port}` : host;
}

/**
 * The host (and port) of a whole address pasted where a domain is asked
 * (`https://www.shop.com/products?a=1` → `www.shop.com`), for the dashboard to send instead; null
 * when `input` is not an http(s) address. The API stays strict: a path is refused there, so that no
 * integrator registers a site believing its path was kept.
 */
export function hostOfAddress(input: string): string | null {
  const value = input.trim();
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    return new URL(value).host || null;
  } catch {
    return null;
  }
}

function withoutWww(host: string): string {
  return host.startsWith("www.") ? host.slice(4) : host;
}

/** Two hosts of one site: equal, or `www.` variants of each other. */
export function sameSite(host: string, other: string): boolean {
  return withoutWww(host) === withoutWww(other);
}

/** True when `url` is an http(s) URL on the site's domain; `www.` variants of the same domain count. */
export function isOnDomain(url: URL, domain: string): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return sameSite(url.host, domain);
}

/** Parses an absolute http(s) URL on the site's domain, or explains why it is not one. */
export function parseSiteUrl(input: string, domain: string): { url: URL } | { problem: string } {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { problem: `${JSON.stringify(input)} is not an absolute URL` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { problem: `${input} must use http or https` };
  if (url.username || url.password) return { problem: `${input} must not contain credentials` };
  if (!isOnDomain(url, domain)) return { problem: `${input} is not on the site's domain ${domain}` };
  url.hash = "";
  return { url };
}
