/**
 * What is not a page a visitor opens. The popularity table ranks pages to warm; a page's images,
 * scripts and styles follow it into a browser, and files nobody opens as a page (sitemaps, feeds,
 * robots.txt, manifests) are fetched by machines. By the path's extension, and by the response's
 * content type when the line has one: anything but HTML is left out.
 */

const ASSET_EXTENSIONS = new Set(
  [
    "png jpg jpeg gif webp avif svg svgz ico bmp tif tiff heic heif jxl cur", // images
    "css js mjs cjs map wasm", // styles, scripts, source maps, WebAssembly
    "woff woff2 ttf otf eot", // fonts
    "mp4 webm ogg ogv oga mp3 wav flac aac m4a m4v mov avi mkv m3u8 mpd vtt srt", // audio, video, subtitles
    "xml xsl rss atom json jsonld txt webmanifest ics", // machine-read: sitemaps, feeds, JSON APIs, robots.txt, manifests
    "pdf doc docx xls xlsx ppt pptx odt ods csv zip gz tgz tar bz2 xz 7z rar dmg exe msi apk iso bin", // downloads, not pages
  ]
    .join(" ")
    .split(" "),
);

const extensionCache = new Map<string, boolean>();

/** The last segment's extension, lower-cased, is an asset's. */
export function isAssetPath(path: string): boolean {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  if (dot <= slash + 1) return false; // no extension, or a dot file such as /.well-known
  const ext = path.slice(dot + 1);
  if (ext.length > 12) return false;
  let asset = extensionCache.get(ext);
  if (asset === undefined) {
    asset = ASSET_EXTENSIONS.has(ext.toLowerCase());
    if (extensionCache.size < 1000) extensionCache.set(ext, asset);
  }
  return asset;
}

/** A response's Content-Type that is not HTML (parameters ignored). */
export function isAssetType(contentType: string): boolean {
  const type = contentType.trimStart().slice(0, 21).toLowerCase();
  return !(type.startsWith("text/html") || type.startsWith("application/xhtml+xml"));
}
