import dns from "node:dns/promises";
import net from "node:net";
import { ProxyAgent, type Dispatcher } from "undici";
import { addressRefusal } from "@/lib/fetch/address-guard";
import { connectTarget } from "@/lib/fetch/connect-to";

type Global = typeof globalThis & { __preheatProxies?: Map<string, ProxyAgent> };

/** PREHEAT_REGION_PROXY_<CODE>: the proxy a region's calls leave through; none = the default network. */
export function regionProxyUrl(region: string): string | undefined {
  return process.env[`PREHEAT_REGION_PROXY_${region.toUpperCase()}`] || undefined;
}

export function regionDispatcher(region: string): Dispatcher | undefined {
  const proxy = regionProxyUrl(region);
  if (!proxy) return undefined;
  const g = globalThis as Global;
  g.__preheatProxies ??= new Map();
  let agent = g.__preheatProxies.get(proxy);
  if (!agent) {
    agent = new ProxyAgent({ uri: proxy, connections: 64 });
    g.__preheatProxies.set(proxy, agent);
  }
  return agent;
}

/**
 * Through a proxy the proxy resolves and connects, so the address guard runs here first:
 * the target host must resolve to public addresses only.
 */
export async function checkProxiedTarget(url: URL): Promise<void> {
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1"); // an IPv6 literal's hostname keeps its brackets
  if (connectTarget(host, port)) return;
  const addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map(({ address }) => address);
  const refusal = addressRefusal(host, addresses);
  if (refusal) throw refusal;
}
