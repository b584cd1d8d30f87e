import { isOnDomain } from "@/lib/sites/domain-name";
import type { UrlTemplates } from "./receiver-schemas";

/** What a payload mapped to: the site's URLs, and for every template that gave none, why. */
export type Mapping = { urls: string[]; misses: string[] };

const PLACEHOLDER = /\{([^{}]+)\}/g;

/** The value at a dotted path (`fields.slug.en-US`) of a parsed JSON body, or undefined. */
export function valueAt(payload: unknown, path: string): unknown {
  let value: unknown = payload;
  for (const key of path.split(".")) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A value as a path segment: encoded like a URI component, its slashes kept (a slug may be `guides/setup`). */
function asPathPart(value: string): string {
  return encodeURIComponent(value).replaceAll("%2F", "/");
}

/**
 * Renders one template against a payload and joins it with the site's origin: the URL, or why the
 * template does not match (a missing, empty or non-scalar field, or a path that leaves the site).
 */
export function renderTemplate(template: string, payload: unknown, domain: string): { url: string } | { miss: string } {
  let missing: string | undefined;
  const path = template.replace(PLACEHOLDER, (_, field: string) => {
    const name = field.trim();
    const value = valueAt(payload, name);
    if ((typeof value === "string" && value.trim() !== "") || (typeof value === "number" && Number.isFinite(value))) return asPathPart(String(value).trim());
    missing ??= value === undefined || value === null || value === "" ? `the payload has no \`${name}\`` : `\`${name}\` is not a string or a number`;
    return "";
  });
  if (missing) return { miss: `${template}: ${missing}` };
  const origin = `https://${domain}`;
  let url: URL;
  try {
    url = new URL(path, origin);
  } catch {
    return { miss: `${template}: ${JSON.stringify(path)} is not a path` };
  }
  if (!isOnDomain(url, domain) || path.startsWith("//")) return { miss: `${template}: ${JSON.stringify(path)} leaves the site ${domain}` };
  return { url: url.href };
}

/** Which templates map a payload of `key`: its own, or those of `*` when it has none (undefined: neither). */
export function templatesKeyFor(templates: UrlTemplates, key: string | undefined): string | undefined {
  if (key !== undefined && templates[key]?.length) return key;
  return templates["*"]?.length ? "*" : undefined;
}

/**
 * The URLs a payload maps to through the templates of `key` (a topic's resource, a content type, a
 * model), or of `*` when `key` has none. Each URL once, in the templates' order.
 */
export function mapPayload(templates: UrlTemplates, key: string | undefined, payload: unknown, domain: string): Mapping {
  const chosenKey = templatesKeyFor(templates, key);
  const chosen = chosenKey === undefined ? undefined : templates[chosenKey];
  if (!chosen?.length) {
    const known = Object.keys(templates);
    const has = known.length ? `it has templates for ${known.map((k) => `\`${k}\``).join(", ")}` : "it has none";
    return { urls: [], misses: [`no URL template for ${key === undefined ? "this payload" : `\`${key}\``} (${has}): add one under \`${key ?? "*"}\``] };
  }
  const urls = new Set<string>();
  const misses: string[] = [];
  for (const template of chosen) {
    const rendered = renderTemplate(template, payload, domain);
    if ("url" in rendered) urls.add(rendered.url);
    else misses.push(rendered.miss);
  }
  return { urls: [...urls], misses };
}
