import { Resolver } from "node:dns/promises";
import { setting } from "@/lib/config";
import { dnsChallengeName, dnsChallengeValue } from "@/lib/core/dns-challenge";

export type MethodOutcome = { proven: true } | { proven: false; why: string };

/**
 * The DNS method's share of the validation's time: below the 10 s each HTTP request of the other
 * methods may take, so that a resolver that never answers costs no more than a slow site does.
 */
export const DNS_DEADLINE_MS = 5_000;
/** c-ares doubles the wait on each try (1 s, 2 s): two resends within the deadline, for a lost UDP packet. */
const TRY_TIMEOUT_MS = 1_000;
const TRIES = 3;
/** How much of the records found an answer quotes, so that the owner sees what is there instead. */
const QUOTED_RECORDS = 3;
const QUOTED_LENGTH = 80;

/** Why a lookup failed, by c-ares's error code, in the owner's words. */
function lookupFailure(code: string | undefined, name: string): string {
  switch (code) {
    case "ENOTFOUND":
      return `${name} does not exist (NXDOMAIN)`;
    case "ENODATA":
      return `${name} has no TXT record`;
    case "ETIMEOUT":
    case "ECANCELLED":
      return `no DNS server answered within ${DNS_DEADLINE_MS / 1000} s`;
    case "ECONNREFUSED":
      return "the DNS server refused the connection";
    case "ESERVFAIL":
      return `the DNS server could not resolve ${name} (SERVFAIL)`;
    case "EREFUSED":
      return `the DNS server refused to resolve ${name} (REFUSED)`;
    default:
      return `the lookup of ${name} failed (${code ?? "unknown error"})`;
  }
}

function quoted(record: string): string {
  return JSON.stringify(record.length > QUOTED_LENGTH ? `${record.slice(0, QUOTED_LENGTH)}…` : record);
}

/**
 * Looks for the TXT record `_preheat-challenge.{domain}` holding `preheat-site-verification={token}`,
 * through PREHEAT_DNS_SERVERS (the system's resolvers when unset). The resolver follows a CNAME;
 * a record's strings are joined, as RFC 7208 reads SPF's (a value longer than 255 bytes must be
 * split), and any of the name's records may be the one. Never throws: every failure is a reason.
 */
export async function dnsProof(domain: string, token: string): Promise<MethodOutcome> {
  const name = dnsChallengeName(domain);
  const expected = dnsChallengeValue(token);
  const resolver = new Resolver({ timeout: TRY_TIMEOUT_MS, tries: TRIES });
  const servers = setting("PREHEAT_DNS_SERVERS");
  if (servers.length > 0) resolver.setServers(servers);
  // c-ares's own timeouts depend on how many servers are listed: the deadline holds whatever they are.
  const deadline = setTimeout(() => resolver.cancel(), DNS_DEADLINE_MS);
  try {
    const records = (await resolver.resolveTxt(name)).map((strings) => strings.join(""));
    if (records.some((record) => record.trim() === expected)) return { proven: true };
    if (records.length === 0) return { proven: false, why: lookupFailure("ENODATA", name) };
    const found = records.slice(0, QUOTED_RECORDS).map(quoted).join(", ");
    const more = records.length > QUOTED_RECORDS ? ` and ${records.length - QUOTED_RECORDS} more` : "";
    return { proven: false, why: `${name} has no TXT record "${expected}" (found ${found}${more})` };
  } catch (error) {
    return { proven: false, why: lookupFailure((error as NodeJS.ErrnoException).code, name) };
  } finally {
    clearTimeout(deadline);
  }
}
