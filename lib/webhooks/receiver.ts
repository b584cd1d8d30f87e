/**
 * What makes two webhook URLs one receiver, so that an account cannot point several webhooks at
 * one endpoint and multiply every event sent there. The URL parser already lower-cases the scheme
 * and host, drops a default port and turns a bare host into `host/`; credentials and the fragment
 * are dropped too, as they do not change where a delivery lands. The query counts: receivers route
 * on it (`?channel=deploys`), and the webhook limit per account bounds what varying it can add.
 */
export function receiverOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search}`;
}
