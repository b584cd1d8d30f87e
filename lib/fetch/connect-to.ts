/**
 * PREHEAT_CONNECT_TO, like curl's --connect-to: comma-separated `host:port:address:port` entries.
 * Requests for host:port connect to address:port; the URL and Host header are unchanged.
 * As in curl, an empty host or port on the left matches any (`:443:127.0.0.1:8443`).
 */
export type ConnectTarget = { address: string; port: number };

let cached: { source: string; table: Map<string, ConnectTarget> } | undefined;

function parseTable(source: string): Map<string, ConnectTarget> {
  const table = new Map<string, ConnectTarget>();
  for (const entry of source.split(",").map((e) => e.trim()).filter(Boolean)) {
    const match = /^([^:]*):(\d*):(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (!match) throw new Error(`PREHEAT_CONNECT_TO: ${JSON.stringify(entry)} is not host:port:address:port`);
    const [, host, port, address, targetPort] = match;
    table.set(`${host!.toLowerCase()}:${port}`, { address: address!.replace(/^\[|\]$/g, ""), port: Number(targetPort) });
  }
  return table;
}

export function connectTarget(host: string, port: number): ConnectTarget | undefined {
  const source = process.env.PREHEAT_CONNECT_TO ?? "";
  if (!source) return undefined;
  if (cached?.source !== source) cached = { source, table: parseTable(source) };
  const name = host.toLowerCase();
  const { table } = cached;
  return table.get(`${name}:${port}`) ?? table.get(`${name}:`) ?? table.get(`:${port}`) ?? table.get(":");
}
