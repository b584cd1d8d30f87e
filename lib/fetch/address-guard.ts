import net from "node:net";
import ipaddr from "ipaddr.js";
import { setting } from "@/lib/config";
import { FetchError } from "./errors";
import { parseIp } from "./ip-address";

/**
 * Every range of the IANA IPv4 and IPv6 Special-Purpose Address Registries that is not globally
 * reachable, and multicast. The first match names the refusal, so a narrow range comes before the
 * wide one that holds it. Schemes that embed an IPv4 address (IPv4-compatible, NAT64, 6to4, Teredo)
 * are refused whole rather than judged by the address they embed: they are deprecated or relayed,
 * no site relies on them, and a relay may reach a network the embedded address does not show.
 * (::ffff:0:0/96, IPv4-mapped, is the IPv4 address itself: it is judged as that, before this table.)
 */
const NOT_PUBLIC = (
  [
    ["0.0.0.0/8", "“this network”"],
    ["10.0.0.0/8", "private-use"],
    ["100.64.0.0/10", "shared (carrier-grade NAT)"],
    ["127.0.0.0/8", "loopback"],
    ["169.254.0.0/16", "link-local"], // cloud metadata services live here
    ["172.16.0.0/12", "private-use"],
    ["192.0.0.0/24", "IETF protocol assignment"],
    ["192.0.2.0/24", "documentation"],
    ["192.88.99.0/24", "6to4 relay anycast"],
    ["192.168.0.0/16", "private-use"],
    ["198.18.0.0/15", "benchmarking"],
    ["198.51.100.0/24", "documentation"],
    ["203.0.113.0/24", "documentation"],
    ["224.0.0.0/4", "multicast"],
    ["255.255.255.255/32", "limited broadcast"],
    ["240.0.0.0/4", "reserved"],
    ["::/128", "unspecified"],
    ["::1/128", "loopback"],
    ["::/96", "IPv4-compatible (deprecated)"],
    ["64:ff9b::/96", "NAT64"],
    ["64:ff9b:1::/48", "local-use NAT64"],
    ["100::/64", "discard-only"],
    ["2001::/32", "Teredo"],
    ["2001::/23", "IETF protocol assignment"],
    ["2001:db8::/32", "documentation"],
    ["2002::/16", "6to4"],
    ["3fff::/20", "documentation"],
    ["5f00::/16", "SRv6 SID"],
    ["fc00::/7", "unique-local"],
    ["fe80::/10", "link-local"],
    ["ff00::/8", "multicast"],
  ] satisfies Array<[cidr: string, name: string]>
).map(([cidr, name]) => ({ cidr, range: ipaddr.parseCIDR(cidr), name }));

/** IANA allocates public IPv6 unicast from 2000::/3 only; the rest is reserved or special. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

function allowPrivateNetwork(): boolean {
  return setting("PREHEAT_ALLOW_PRIVATE_NETWORK");
}

/** Why the address must not be reached ("in the loopback range 127.0.0.0/8"), or undefined when it is public. */
export function blockedReason(address: string): string | undefined {
  const parsed = parseIp(address);
  if (!parsed) return "not an IP address";
  const special = NOT_PUBLIC.find(({ range }) => range[0].kind() === parsed.kind() && parsed.match(range));
  if (special) return `in the ${special.name} range ${special.cidr}`;
  if (parsed.kind() === "ipv6" && !parsed.match(GLOBAL_UNICAST_V6)) return "outside the IPv6 global unicast range 2000::/3";
  return undefined;
}

/**
 * The refusal to connect to `host` at `addresses` (what it resolved to), or undefined when every one
 * is public. A refusal names the host as the user gave it, never an address it resolved to: that
 * would let anyone map the internal network through our error messages.
 */
export function addressRefusal(host: string, addresses: readonly string[]): FetchError | undefined {
  if (allowPrivateNetwork()) return undefined;
  const blocked = addresses.map(blockedReason).find(Boolean);
  if (!blocked) return undefined;
  const what = net.isIP(host) ? `${host} is ${blocked}, not` : `${host} resolves to an address that is not`;
  return new FetchError("blocked_address", `refused to connect: ${what} a public Internet address`);
}
