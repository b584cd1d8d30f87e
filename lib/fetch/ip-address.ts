import net from "node:net";
import ipaddr from "ipaddr.js";

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * An IP address as written by a socket or an operator, or undefined; an IPv4-mapped IPv6 address
 * (::ffff:127.0.0.1) is the IPv4 address it carries. A module of its own, without configuration,
 * so that the configuration module can check addresses with it.
 */
export function parseIp(value: string): IpAddress | undefined {
  // net.isIP, not ipaddr.isValid: ipaddr.js also reads forms such as "0x7f.1" or "127.1".
  if (!net.isIP(value)) return undefined;
  const parsed: IpAddress = ipaddr.parse(value);
  return parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
}
