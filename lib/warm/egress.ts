import { isVariableName, setting } from "@/lib/config";
import type { RegionProxyVariable } from "@/lib/config/variables";

/** PREHEAT_REGION_PROXY_<CODE>: the proxy a region's calls leave through; none = the default network. */
export function regionProxyUrl(region: string): string | undefined {
  const name = `PREHEAT_REGION_PROXY_${region.toUpperCase()}` as RegionProxyVariable;
  return isVariableName(name) ? setting(name) : undefined;
}
