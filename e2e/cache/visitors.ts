import { Agent, request } from "undici";

/**
 * Real visitors' requests, header for header as their browsers send a top-level navigation today
 * (Chrome 142 and Firefox 145 on Windows, Safari on iOS 18, Googlebot smartphone, GPTBot, curl).
 * The mix is the issue's: 60 % Chrome desktop, 25 % iPhone Safari, 10 % Googlebot, 5 % others.
 */
export type Visitor = { name: string; headers: Record<string, string> /** the network it comes from (127.0.0.3: a crawler's verified range) */; from?: string };

const chrome = (language: string): Visitor => ({
  name: "Chrome desktop",
  headers: {
    "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
    "accept-encoding": "gzip, deflate, br, zstd",
    "accept-language": language,
    "sec-ch-ua": '"Chromium";v="142", "Google Chrome";v="142", "Not_A Brand";v="99"',
    "sec-ch-ua-mobile": "?0",
    "sec-ch-ua-platform": '"Windows"',
  },
});

const safari = (language: string): Visitor => ({
  name: "iPhone Safari",
  headers: {
    "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1",
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "accept-encoding": "gzip, deflate, br",
    "accept-language": language,
  },
});

const googlebot: Visitor = {
  name: "Googlebot smartphone",
  from: "127.0.0.3",
  headers: {
    "user-agent":
      "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.7444.59 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    "accept-encoding": "gzip, deflate, br",
  },
};

const firefox: Visitor = {
  name: "Firefox desktop",
  headers: {
    "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:145.0) Gecko/20100101 Firefox/145.0",
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "accept-encoding": "gzip, deflate, br, zstd",
    "accept-language": "en-US,en;q=0.5",
  },
};

const gptbot: Visitor = {
  name: "GPTBot",
  from: "127.0.0.3",
  headers: { "user-agent": "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", accept: "*/*", "accept-encoding": "gzip, deflate, br" },
};

const curl: Visitor = { name: "curl", headers: { "user-agent": "curl/8.5.0", accept: "*/*" } };

/** 100 visitors in the proportions; languages alternate between English and French. */
export function visitorMix(): Visitor[] {
  const languages = ["en-US,en;q=0.9", "fr-FR,fr;q=0.9,en;q=0.8"];
  return [
    ...Array.from({ length: 60 }, (_, i) => chrome(languages[i % 2]!)),
    ...Array.from({ length: 25 }, (_, i) => safari(languages[i % 2]!)),
    ...Array.from({ length: 10 }, () => googlebot),
    firefox,
    firefox,
    gptbot,
    curl,
    curl,
  ];
}

const agents = new Map<string, Agent>();
const agentFrom = (address: string) => agents.get(address) ?? agents.set(address, new Agent({ localAddress: address })).get(address)!;

export type VisitResult = { visitor: string; url: string; status: number; hit: boolean };

/** Each visitor asks the cache for one page of `urls` (in turn), with `extra` headers (a cookie, credentials); what the cache answered. */
export async function visit(cachePort: number, host: string, paths: string[], visitors: Visitor[], extra: (index: number) => Record<string, string> = () => ({})): Promise<VisitResult[]> {
  const results: VisitResult[] = [];
  for (const [index, visitor] of visitors.entries()) {
    const path = paths[index % paths.length]!;
    const response = await request(`http://127.0.0.1:${cachePort}${path}`, {
      headers: { host, ...visitor.headers, ...extra(index) },
      dispatcher: agentFrom(visitor.from ?? "127.0.0.1"),
    });
    await response.body.dump();
    results.push({ visitor: visitor.name, url: path, status: response.statusCode, hit: response.headers["x-cache"] === "HIT" });
  }
  return results;
}

/** Share of visits served from the cache, and who missed (for the failure message). */
export function hitRatio(results: VisitResult[]): { ratio: number; missed: Record<string, number> } {
  const missed: Record<string, number> = {};
  for (const result of results) if (!result.hit) missed[result.visitor] = (missed[result.visitor] ?? 0) + 1;
  return { ratio: results.filter((r) => r.hit).length / results.length, missed };
}
