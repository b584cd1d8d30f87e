import http from "node:http";
import { setting } from "@/lib/config";
import { parseTrustedProxies, type ProxyRange } from "@/lib/config/parsers";
import { parseIp } from "@/lib/fetch/ip-address";

/**
 * The address of the peer that opened the connection, written by this process on every request it
 * receives. Route handlers never see the socket (Next.js hands them a Request), and Next only fills
 * X-Forwarded-For when the client did not send one, so a client could name any address there.
 */
export const PEER_ADDRESS_HEADER = "x-preheat-peer-address";

type Global = typeof globalThis & { __preheatPeerStamp?: boolean };

/** Stamps every incoming request of this process's HTTP servers with its peer address (overwriting any sent). */
export function stampPeerAddresses(): void {
  const g = globalThis as Global;
  if (g.__preheatPeerStamp) return;
  g.__preheatPeerStamp = true;
  const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event === "request") {
      const request = args[0] as http.IncomingMessage;
      request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}

type Range = ProxyRange;

/** PREHEAT_TRUSTED_PROXIES (or the list given): addresses or CIDR ranges of the proxies in front (nginx, a load balancer). */
export function trustedProxies(value?: string): Range[] {
  return value === undefined ? setting("PREHEAT_TRUSTED_PROXIES") : parseTrustedProxies(value);
}

function isTrusted(address: string, proxies: Range[]): boolean {
  const parsed = parseIp(address);
  return Boolean(parsed && proxies.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits)));
}

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string {
  const value = typeof headers.get === "function" ? (headers as { get(name: string): string | null }).get(name) : (headers as Record<string, unknown>)[name];
  return typeof value === "string" ? value : Array.isArray(value) ? value.join(",") : "";
}

/**
 * The client's address for per-client limits: the peer that connected, unless that peer is a
 * declared proxy; then X-Forwarded-For is read from the right, past every declared proxy, so a
 * client cannot choose its own bucket by sending the header itself.
 */
export function clientAddress(headers: HeaderSource, proxies = trustedProxies()): string {
  const peer = header(headers, PEER_ADDRESS_HEADER).trim();
  if (!peer) return "unknown";
  if (!isTrusted(peer, proxies)) return normalise(peer);
  const hops = header(headers, "x-forwarded-for")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrusted(hops[i]!, proxies)) return normalise(hops[i]!);
  }
  return normalise(hops[0] ?? peer);
}

function normalise(address: string): string {
  return parseIp(address)?.toString() ?? address;
}
