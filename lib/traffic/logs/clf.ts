import type { LineResult } from "@/lib/traffic/logs/entry";
import { dayOfClf } from "@/lib/traffic/logs/time";

/**
 * The Common and Combined Log Formats, as nginx (`combined`, its default) and Apache (`common`,
 * `combined`, and Debian's `vhost_combined`, whose first field is the virtual host and port) write
 * them: `host ident user [time] "request" status bytes ["referer" "user agent"]`, anything after
 * ignored (nginx's `main` adds `"$http_x_forwarded_for"`). Read by hand rather than by one regular
 * expression: a log is millions of lines, and a hostile one should not make a pattern backtrack.
 */

/** The quoted field that opens at `start` (a `"`): its text and the index after its closing quote. Apache escapes `"` as `\"`. */
function quoted(line: string, start: number): { value: string; end: number } | null {
  if (line.charCodeAt(start) !== 0x22) return null;
  let close = line.indexOf('"', start + 1);
  while (close > 0) {
    let backslashes = 0;
    for (let i = close - 1; line.charCodeAt(i) === 0x5c; i--) backslashes++;
    if (backslashes % 2 === 0) break;
    close = line.indexOf('"', close + 1);
  }
  if (close < 0) return null;
  return { value: line.slice(start + 1, close), end: close + 1 };
}

/**
 * Apache's and nginx's escapes undone where they matter: `\"` and `\\`, and `\xHH` (a byte the
 * server would not write raw) as the percent-escape it was on the wire.
 */
function unescapeLogged(value: string, inUrl: boolean): string {
  if (!value.includes("\\")) return value;
  return value.replace(/\\(x[0-9a-fA-F]{2}|.)/g, (_, c: string) => (c.length === 3 ? (inUrl ? `%${c.slice(1)}` : String.fromCharCode(Number.parseInt(c.slice(1), 16))) : c));
}

type ClfResult = { format: "combined" | "common"; result: LineResult };

export function readClfLine(line: string): ClfResult {
  const broken: ClfResult = { format: "common", result: "broken" };
  const open = line.indexOf(" [");
  if (open < 0) return broken;
  const before = line.slice(0, open).split(" ");
  if (before.length !== 3 && before.length !== 4) return broken;
  const vhost = before.length === 4 ? before[0]! : null;
  const close = line.indexOf("] ", open);
  if (close < 0) return broken;
  const day = dayOfClf(line.slice(open + 2, close));
  const request = quoted(line, close + 2);
  if (!day || !request) return broken;
  const statusMatch = /^ (\d{3}) \S+/.exec(line.slice(request.end, request.end + 40));
  if (!statusMatch) return broken;
  let at = request.end + statusMatch[0].length;
  let userAgent: string | null = null;
  let combined = false;
  if (line.charCodeAt(at) === 0x20) {
    const referer = quoted(line, at + 1);
    const agent = referer && line.charCodeAt(referer.end) === 0x20 ? quoted(line, referer.end + 1) : null;
    if (!agent) return broken;
    combined = true;
    userAgent = unescapeLogged(agent.value, false);
    at = agent.end;
  }
  // "GET /path HTTP/1.1"; HTTP/0.9's "GET /path" has no protocol; junk (a TLS handshake sent to
  // port 80) has no target and is left out by its method.
  const raw = unescapeLogged(request.value, true);
  const space = raw.indexOf(" ");
  const last = raw.lastIndexOf(" ");
  const method = space < 0 ? raw : raw.slice(0, space);
  const target = space < 0 ? "" : last > space && raw.startsWith("HTTP/", last + 1) ? raw.slice(space + 1, last) : raw.slice(space + 1);
  return {
    format: combined ? "combined" : "common",
    result: { method, target, status: Number(statusMatch[1]), host: vhost, userAgent, contentType: null, day },
  };
}
