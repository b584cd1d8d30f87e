/** PREHEAT_REGION_PROXY_<CODE>: the proxy a region's calls leave through; none = the default network. */
export function regionProxyUrl(region: string): string | undefined {
  return process.env[`PREHEAT_REGION_PROXY_${region.toUpperCase()}`] || undefined;
}
