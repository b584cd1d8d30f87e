import type { CONTENT_TYPES } from "@/lib/core/variations";

export type ContentType = (typeof CONTENT_TYPES)[number];

/** Content types as recognised from the URL's extension; a path without one is a page (html). */
const EXTENSION_TYPES: Record<string, ContentType> = {
  html: "html",
  htm: "html",
  php: "html",
  asp: "html",
  aspx: "html",
  jsp: "html",
  css: "css",
  js: "js",
  mjs: "js",
  jpg: "image",
  jpeg: "image",
  png: "image",
  gif: "image",
  webp: "image",
  avif: "image",
  svg: "image",
  ico: "image",
  bmp: "image",
  woff: "font",
  woff2: "font",
  ttf: "font",
  otf: "font",
  eot: "font",
  pdf: "pdf",
  json: "json",
  xml: "xml",
  rss: "xml",
  atom: "xml",
  mp4: "video",
  webm: "video",
  mov: "video",
  m3u8: "video",
  mp3: "audio",
  ogg: "audio",
  wav: "audio",
  m4a: "audio",
};

/** The lower-cased extension of the URL's last path segment (query string ignored), or "" for none. */
export function extensionOf(url: URL): string {
  const last = url.pathname.split("/").pop() ?? "";
  const dot = last.lastIndexOf(".");
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : "";
}

export function contentTypeOf(url: URL): ContentType {
  const ext = extensionOf(url);
  return ext ? (EXTENSION_TYPES[ext] ?? "other") : "html";
}

export type UrlFilters = { urlRoot: string; excludeExt: string[] | null; contentTypes: string[] | null };

/** Whether a boost warms this URL: under url_root, not an excluded extension, of a wanted content type. */
export function keepsUrl(url: URL, filters: UrlFilters): boolean {
  if (!url.pathname.startsWith(filters.urlRoot)) return false;
  const ext = extensionOf(url);
  if (ext && filters.excludeExt?.includes(ext)) return false;
  if (filters.contentTypes?.length && !filters.contentTypes.includes(contentTypeOf(url))) return false;
  return true;
}
