import { FetchError, guardedRequest } from "@/lib/fetch";
import { readCsvUrls } from "./csv-urls";
import { charsetOf } from "./encoding";
import { gunzipIfCompressed } from "./gzip";
import { emptyTally, tallyUrl, type UrlTally } from "./site-urls";
import { resolved } from "./feed-links";
import { type ReadOptions, readXmlUrls, type XmlUrlSource } from "@/lib/sources/xml-urls";
import { SourceFormatError } from "@/lib/sources/errors";

/** The sitemaps protocol's own limits: 50,000 URLs and 50 MB (uncompressed) per file. */
const MAX_SOURCE_BYTES = 50 * 1024 * 1024;
const MAX_ENTRIES_PER_FILE = 50_000;
const MAX_CSV_ROWS = 500_000;
const SOURCE_TIMEOUT_MS = 60_000;

/** What one download may take; tests pass smaller limits. */
type SourceLimits = { maxBytes: number; timeoutMs: number };
const SOURCE_LIMITS: SourceLimits = { maxBytes: MAX_SOURCE_BYTES, timeoutMs: SOURCE_TIMEOUT_MS };

/** An HTTP answer that is not the document; 5xx and 429 may pass, the rest will not. */
class SourceHttpError extends Error {
  constructor(
    readonly status: number,
    url: string,
  ) {
    super(`${url} answered HTTP ${status}`);
  }
}

/** A failure of the source itself (its answer, its document, its address), as opposed to one of ours. */
export function isSourceError(error: unknown): boolean {
  return error instanceof SourceFormatError || error instanceof SourceHttpError || error instanceof FetchError;
}

export function isTransient(error: unknown): boolean {
  if (error instanceof SourceHttpError) return error.status >= 500 || error.status === 429;
  if (error instanceof FetchError) return error.transient;
  return false;
}

/** A document's HTTP validators: sent back as a conditional GET, so an unchanged document costs a 304. */
export type Validators = { etag: string | null; lastModified: string | null };

const header = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? (value[0] ?? null) : (value ?? null));

/**
 * The address the document's relative links resolve against: its Content-Location (RFC 9110 §8.7,
 * itself relative to the URL answered), else the URL that answered, after redirects, as feed readers take it.
 */
function documentBase(answeredUrl: string, contentLocation: string | null): string {
  return (contentLocation && resolved(contentLocation, answeredUrl)) || answeredUrl;
}

/**
 * The document's body, decompressed, its validators and the address its relative links resolve against;
 * `undefined` when `since` still holds (304). The caller must destroy the body: that releases the connection.
 */
async function openSource(url: string, limits: SourceLimits, since?: Validators) {
  const conditional: Record<string, string> = {};
  if (since?.etag) conditional["if-none-match"] = since.etag;
  if (since?.lastModified) conditional["if-modified-since"] = since.lastModified;
  const response = await guardedRequest(url, {
    timeoutMs: limits.timeoutMs,
    maxBytes: limits.maxBytes,
    headers: { accept: "application/xml, text/xml, application/rss+xml, application/atom+xml, text/csv, */*;q=0.5", ...conditional },
  });
  if (response.status === 304 && since) {
    response.body.destroy();
    return undefined;
  }
  if (response.status >= 400) {
    response.body.destroy();
    throw new SourceHttpError(response.status, url);
  }
  const validators: Validators = { etag: header(response.headers.etag), lastModified: header(response.headers["last-modified"]) };
  return {
    body: await gunzipIfCompressed(response.body, limits.maxBytes, url),
    validators,
    charset: charsetOf(header(response.headers["content-type"])),
    base: documentBase(response.url, header(response.headers["content-location"])),
  };
}

/** Fetches and reads one XML document (sitemap, index or feed), gzip or not, streaming. */
export async function fetchXmlSource(url: string, limits = SOURCE_LIMITS, options: Pick<ReadOptions, "onEntries"> = {}): Promise<XmlUrlSource> {
  const read = await fetchXmlSourceIfChanged(url, undefined, limits, options);
  return read!.source;
}

/** fetchXmlSource as a conditional GET: `undefined` when the document has not changed since `since`. */
export async function fetchXmlSourceIfChanged(
  url: string,
  since: Validators | undefined,
  limits = SOURCE_LIMITS,
  options: Pick<ReadOptions, "onEntries"> = {},
): Promise<{ source: XmlUrlSource; validators: Validators } | undefined> {
  const opened = await openSource(url, limits, since);
  if (!opened) return undefined;
  try {
    const read = { ...options, charset: opened.charset, baseUrl: opened.base };
    return { source: await readXmlUrls(opened.body, MAX_ENTRIES_PER_FILE, read), validators: opened.validators };
  } finally {
    opened.body.destroy();
  }
}

/** Fetches a CSV file of URLs and keeps the valid ones on the site's domain. */
export async function fetchCsvUrls(url: string, domain: string, limits = SOURCE_LIMITS): Promise<UrlTally & { rows: number }> {
  const { body, charset } = (await openSource(url, limits))!;
  try {
    const { urls, rows } = await readCsvUrls(body, MAX_CSV_ROWS, { charset });
    const tally = emptyTally();
    for (const value of urls) tallyUrl(tally, value, domain);
    tally.invalid += rows - urls.length;
    return { ...tally, rows };
  } finally {
    body.destroy();
  }
}

export function describeSourceError(error: unknown): string {
  if (error instanceof SourceFormatError) return `The document is ${error.message}.`;
  if (error instanceof SourceHttpError || error instanceof FetchError) return `${error.message}.`;
  return "Unexpected error while reading the source.";
}
