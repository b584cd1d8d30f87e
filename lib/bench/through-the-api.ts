import http from "node:http";

/** One `/v1` call with a bearer key: its JSON answer, or an error naming the call and its status. */
export async function apiCall(baseUrl: string, key: string, method: string, pathname: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** One GET of `url` on a connection of its own, as a dashboard or a script polling a run does: its time in ms. */
function timedGet(url: string, key: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { authorization: `Bearer ${key}` } }, (response) => {
        response.resume();
        response.on("end", () => (response.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`GET ${url}: ${response.statusCode}`))));
      })
      .on("error", reject);
  });
}

/** Polls `url` every `everyMs`, each time on a fresh connection, until `stop`, which gives every request's time. */
export function probeLatency(url: string, key: string, everyMs: number) {
  const times: number[] = [];
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const request = timedGet(url, key).then((ms) => void times.push(ms));
    pending.add(request);
    void request.finally(() => pending.delete(request));
  }, everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
      return times;
    },
  };
}
