/**
 * A request target made into the popularity table's key: one spelling per page, whichever way the
 * server logged it. Percent-encoding is kept (a path is bytes, and `%2F` is not `/`), but
 * normalised: unreserved characters (RFC 3986 §2.3: letters, digits, `-._~`) decoded, other escapes'
 * hex in capitals (nginx logs `/caf%c3%a9/` as the browser sent it, CloudFront `%7E` for `~`), and
 * anything a URL cannot hold raw (spaces, controls, NUL, non-ASCII, `"<>\^`{|}`) encoded, so that a
 * path is printable ASCII and never holds a NUL that PostgreSQL's text refuses. Runs of `/` are
 * collapsed (nginx's merge_slashes serves `//blog//a` as `/blog/a`), a fragment is dropped (a
 * browser never sends one), and an absolute-form target gives its host.
 */

type Target = { host: string | null; path: string; query: string };

const HEX = "0123456789ABCDEF";

function isUnreserved(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e || code === 0x5f || code === 0x7e;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

/** Printable ASCII that may stand raw in a path or query (RFC 3986's pchar, `/`, `?`, and `%` of an escape). */
function isRawAllowed(code: number): boolean {
  return code > 0x20 && code < 0x7f && code !== 0x22 && code !== 0x3c && code !== 0x3e && code !== 0x5c && code !== 0x5e && code !== 0x60 && code !== 0x7b && code !== 0x7c && code !== 0x7d;
}

/** Already canonical: the common case, checked without building a string. */
function isCanonical(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x25 || !isRawAllowed(code)) return false;
  }
  return true;
}

function normaliseEscapes(value: string): string {
  if (isCanonical(value)) return value;
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x25) {
      const hi = hexValue(value.charCodeAt(i + 1));
      const lo = hexValue(value.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        const byte = hi * 16 + lo;
        out += isUnreserved(byte) ? String.fromCharCode(byte) : `%${HEX[hi]}${HEX[lo]}`;
        i += 2;
      } else {
        out += "%25"; // a lone `%` is a literal percent sign
      }
    } else if (isRawAllowed(code)) {
      out += value[i];
    } else {
      // Non-ASCII as its UTF-8 bytes (a lone surrogate as U+FFFD's), like a browser sends it.
      const end = code >= 0xd800 && code <= 0xdbff ? i + 2 : i + 1;
      for (const byte of Buffer.from(value.slice(i, end), "utf8")) out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
      i = end - 1;
    }
  }
  return out;
}

/** `http(s)://host[:port]/path`: the host, lower-cased, without port or userinfo. */
const ABSOLUTE = /^https?:\/\/(?:[^/?#@]*@)?([^/?#]*)(.*)$/i;

/** The target's host (absolute form only), path and query, normalised; null when it is not a URL path. */
export function parseTarget(raw: string): Target | null {
  let host: string | null = null;
  let rest = raw;
  if (raw.charCodeAt(0) !== 0x2f) {
    const m = ABSOLUTE.exec(raw);
    if (!m) return null;
    host = m[1]!;
    rest = m[2] || "/";
    if (rest.charCodeAt(0) !== 0x2f) rest = `/${rest}`;
  }
  const hash = rest.indexOf("#");
  if (hash >= 0) rest = rest.slice(0, hash);
  const mark = rest.indexOf("?");
  let path = mark >= 0 ? rest.slice(0, mark) : rest;
  const query = mark >= 0 ? rest.slice(mark + 1) : "";
  if (path.includes("//")) path = path.replace(/\/{2,}/g, "/");
  return { host, path: normaliseEscapes(path), query: query === "" ? "" : normaliseEscapes(query) };
}

/** A host as the site's domain is compared with: lower case, no port, no trailing dot. */
export function normaliseHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h; // an IPv6 literal is never the site's name
  const colon = h.lastIndexOf(":");
  if (colon >= 0) h = h.slice(0, colon);
  return h.endsWith(".") ? h.slice(0, -1) : h;
}
