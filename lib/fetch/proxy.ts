import dns from "node:dns/promises";
import net from "node:net";
import { ProxyAgent } from "undici";
import { addressRefusal } from "./address-guard";
import { connectTarget } from "./connect-to";

type Global = typeof globalThis & { __preheatProxies?: Map<string, ProxyAgent> };

/** One keep-alive agent per proxy (an operator's address, trusted: it is not checked). */
export function proxyAgent(uri: string): ProxyAgent {
  const g = globalThis as Global;
  g.__preheatProxies ??= new Map();
  let agent = g.__preheatProxies.get(uri);
  if (!agent) {
    agent = new ProxyAgent({ uri, connections: 64 });
    g.__preheatProxies.set(uri, agent);
  }
  return agent;
}

/**
 * Through a proxy the proxy resolves and connects, out of reach of the agent's connector, so the
 * address guard runs here, before each hop: the target host must resolve to public addresses only.
 */
export async function checkProxiedTarget(url: URL): Promise<void> {
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1"); // an IPv6 literal's hostname keeps its brackets
  if (connectTarget(host, port)) return;
  const addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map(({ address }) => address);
  const refusal = addressRefusal(host, addresses);
  if (refusal) throw refusal;
}
