import net from "node:net";
import ipaddr from "ipaddr.js";
import { parseIp } from "@/lib/fetch/ip-address";
import { REGIONS, type RegionCode, regionCodeSchema } from "@/lib/core/regions";

/**
 * Readers of the configuration values that are lists. Each throws an Error whose message says
 * which entry is wrong; the configuration module turns it into a ConfigError naming the variable.
 * They import nothing that reads the configuration, so that module can use them.
 */

export type ProxyRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** PREHEAT_TRUSTED_PROXIES: comma-separated IP addresses or CIDR ranges. */
export function parseTrustedProxies(value: string): ProxyRange[] {
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry): ProxyRange => {
      if (entry.includes("/")) {
        try {
          return ipaddr.parseCIDR(entry);
        } catch {
          throw new Error(`PREHEAT_TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an IP address or CIDR range.`);
        }
      }
      const address = parseIp(entry);
      if (!address) throw new Error(`PREHEAT_TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an IP address or CIDR range.`);
      return [address, address.kind() === "ipv4" ? 32 : 128];
    });
}

export type ConnectTarget = { address: string; port: number };

/**
 * PREHEAT_CONNECT_TO, like curl's --connect-to: comma-separated `host:port:address:port` entries,
 * keyed `host:port` (lower-case host; an empty host or port matches any).
 */
export function parseConnectTo(source: string): Map<string, ConnectTarget> {
  const table = new Map<string, ConnectTarget>();
  for (const entry of source
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([^:]*):(\d*):(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (!match) throw new Error(`PREHEAT_CONNECT_TO: ${JSON.stringify(entry)} is not host:port:address:port`);
    const [, host, port, address, targetPort] = match;
    table.set(`${host!.toLowerCase()}:${port}`, { address: address!.replace(/^\[|\]$/g, ""), port: Number(targetPort) });
  }
  return table;
}

/**
 * `--regions de,fr` or PREHEAT_WORKER_REGIONS: region codes, comma separated. Unknown codes are an
 * error (a typo must not leave a region without its worker); `uk` is `gb`; duplicates collapse.
 */
export function parseRegionList(text: string): RegionCode[] {
  const codes = text
    .split(",")
    .map((code) => code.trim().toLowerCase())
    .filter(Boolean);
  const parsed = codes.map((code) => {
    const result = regionCodeSchema.safeParse(code);
    if (!result.success) throw new Error(`Unknown region "${code}" in the worker's region list: choose among ${REGIONS.map((r) => r.code).join(", ")}.`);
    return result.data;
  });
  return [...new Set(parsed)];
}

/** PREHEAT_SECRETS_KEY: 32 bytes, written as 64 hexadecimal characters or in base64 (either alphabet). */
export function parseSecretsKey(value: string): Buffer {
  const text = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, "base64") : null;
  if (key?.length !== 32) throw new Error("PREHEAT_SECRETS_KEY: not 32 bytes as 64 hex characters or base64 (openssl rand -hex 32 makes one).");
  return key;
}

/**
 * PREHEAT_DNS_SERVERS: comma-separated `address` or `address:port` entries (`[address]:port` for
 * IPv6), as node's `Resolver.setServers` takes them. Addresses only: a resolver named by a host name
 * would need a resolver to be found.
 */
export function parseDnsServers(value: string): string[] {
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const bare = net.isIP(entry) ? [entry, undefined] : (/^\[([^\]]+)\]:(\d+)$/.exec(entry) ?? /^([^:]+):(\d+)$/.exec(entry))?.slice(1);
      const [address, port] = bare ?? [];
      if (!address || !net.isIP(address) || (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65535))) {
        throw new Error(`PREHEAT_DNS_SERVERS: ${JSON.stringify(entry)} is not an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [2606:4700::1111]:53).`);
      }
      return entry;
    });
}
