/**
 * The DNS ownership proof's record, declared once: the resolver (lib/sites) looks for it and the
 * dashboard shows it to copy. A TXT record on a name of its own, as Google, Vercel and Cloudflare
 * ask for theirs, so that it never mixes with the domain's SPF or other TXT records.
 */

/** The name of the TXT record for a site's domain (a port, if the site has one, is no part of a DNS name). */
export function dnsChallengeName(domain: string): string {
  return `_preheat-challenge.${domain.replace(/:\d+$/, "")}`;
}

/** What the record holds, whole (its strings joined). */
export function dnsChallengeValue(token: string): string {
  return `preheat-site-verification=${token}`;
}
