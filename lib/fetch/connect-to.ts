import { setting } from "@/lib/config";
import type { ConnectTarget } from "@/lib/config/parsers";

/**
 * PREHEAT_CONNECT_TO, like curl's --connect-to: comma-separated `host:port:address:port` entries.
 * Requests for host:port connect to address:port; the URL and Host header are unchanged.
 * As in curl, an empty host or port on the left matches any (`:443:127.0.0.1:8443`).
 * (Read by lib/config/parsers.ts; the table is parsed again only when the variable changes.)
 */
export type { ConnectTarget };

export function connectTarget(host: string, port: number): ConnectTarget | undefined {
  const table = setting("PREHEAT_CONNECT_TO");
  if (!table.size) return undefined;
  const name = host.toLowerCase();
  return table.get(`${name}:${port}`) ?? table.get(`${name}:`) ?? table.get(`:${port}`) ?? table.get(":");
}
