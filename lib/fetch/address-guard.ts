import ipaddr from "ipaddr.js";

/** Only public unicast addresses may be reached for a customer; everything else is internal. */
const ALLOWED_RANGES = new Set(["unicast"]);

export function allowPrivateNetwork(): boolean {
  return process.env.PREHEAT_ALLOW_PRIVATE_NETWORK === "true";
}

/** Returns why the address must not be reached, or undefined when it is a public address. */
export function blockedReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  // ipaddr.js calls CGNAT (100.64/10) "carrierGradeNat", metadata (169.254.169.254) is link-local.
  if (!ALLOWED_RANGES.has(range)) return `${address} is a ${range} address`;
  return undefined;
}

export function checkAddress(address: string): void {
  if (allowPrivateNetwork()) return;
  const reason = blockedReason(address);
  if (reason) throw new Error(`refused to connect: ${reason}, not a public Internet address`);
}
