import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local origin standing in for customers' sites. Tests describe per host what each path answers
 * (PUT /__origin/hosts/{host}); the service reaches it through PREHEAT_CONNECT_TO.
 */
/** `{{path}}` in a body is replaced by the path asked for: a page that repeats its address (a soft 404, a search page). */
type OriginResponse = { status?: number; body?: string; headers?: Record<string, string>; delayMs?: number };
export type OriginHost = { routes: Record<string, OriginResponse>; fallback?: OriginResponse };

export async function startOrigin(port = 0) {
  const hosts = new Map<string, OriginHost>();
  const log = new Map<string, { request: string; user_agent: string; headers: http.IncomingHttpHeaders }[]>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://origin");
    if (url.pathname.startsWith("/__origin/hosts/")) {
      const host = decodeURIComponent(url.pathname.slice("/__origin/hosts/".length));
      if (req.method === "GET") {
        // The requests as "GET /path", or with ?user_agents=1 each with the User-Agent it was sent with,
        // or with ?headers=a,b each with those request headers (absent: null).
        const entries = log.get(host) ?? [];
        const names = url.searchParams.get("headers")?.split(",");
        const listed = names
          ? entries.map((entry) => ({ request: entry.request, headers: Object.fromEntries(names.map((name) => [name, entry.headers[name] ?? null])) }))
          : url.searchParams.has("user_agents")
            ? entries.map(({ request, user_agent }) => ({ request, user_agent }))
            : entries.map((entry) => entry.request);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(listed));
        return;
      }
      let raw = "";
      req.on("data", (chunk) => (raw += chunk));
      req.on("end", () => {
        hosts.set(host, JSON.parse(raw) as OriginHost);
        log.set(host, []);
        res.writeHead(204).end();
      });
      return;
    }
    const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
    const list = log.get(host) ?? [];
    list.push({ request: `${req.method} ${url.pathname}${url.search}`, user_agent: req.headers["user-agent"] ?? "", headers: req.headers });
    log.set(host, list);
    const site = hosts.get(host);
    const answer = site?.routes[url.pathname] ?? site?.fallback ?? { status: 404, body: "not found" };
    setTimeout(() => {
      res.writeHead(answer.status ?? 200, { "content-type": "text/html; charset=utf-8", ...answer.headers });
      res.end((answer.body ?? "").replaceAll("{{path}}", url.pathname));
    }, answer.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
