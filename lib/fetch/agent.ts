import dns from "node:dns";
import net from "node:net";
import { Agent, buildConnector } from "undici";
import { addressRefusal } from "./address-guard";
import { connectTarget } from "./connect-to";

type LookupCallback = (error: NodeJS.ErrnoException | null, address?: string | dns.LookupAddress[], family?: number) => void;

/**
 * Resolves once and checks every address before the socket connects to it, so a DNS answer
 * cannot change between the check and the connection. The refusal (a FetchError) reaches the
 * caller of the request as it is.
 */
function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error);
    const refusal = addressRefusal(
      hostname,
      addresses.map(({ address }) => address),
    );
    if (refusal) return callback(refusal);
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }));
    callback(null, first.address, first.family);
  });
}

const CONNECT_TIMEOUT_MS = 5_000;
/** How long a new connection may stay unused before closeIfUnused closes it. */
const UNUSED_CONNECTION_MS = 1_000;

/**
 * Closes a connection nothing was sent on within UNUSED_CONNECTION_MS of opening. After an aborted
 * response (size cap, timeout, a reader stopping early), undici reconnects for the request it has
 * just aborted, drops it, and leaves the new socket idle in the pool for as long as the site's
 * Keep-Alive allows (nodejs/undici#5845). A request is written as soon as its connection opens,
 * and closing an unused one costs nothing: undici opens another for anything still pending.
 */
function closeIfUnused(socket: net.Socket): void {
  const timer = setTimeout(() => {
    if (socket.bytesWritten === 0) socket.destroy();
  }, UNUSED_CONNECTION_MS).unref();
  socket.once("close", () => clearTimeout(timer));
}

function createConnector(): buildConnector.connector {
  const connect = buildConnector({ timeout: CONNECT_TIMEOUT_MS, lookup: guardedLookup } as buildConnector.BuildOptions);
  const trustedConnect = buildConnector({ timeout: CONNECT_TIMEOUT_MS });
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === "https:" ? 443 : 80);
    const target = connectTarget(options.hostname, port);
    const hostname = target?.address ?? options.hostname;
    // An address the operator named in PREHEAT_CONNECT_TO is trusted; every other one is checked.
    const refusal = !target && net.isIP(hostname) ? addressRefusal(hostname, [hostname]) : undefined;
    if (refusal) return callback(refusal, null);
    const servername = options.servername ?? (net.isIP(options.hostname) ? undefined : options.hostname);
    (target ? trustedConnect : connect)({ ...options, hostname, port: String(target?.port ?? port), servername }, (...result) => {
      if (result[1]) closeIfUnused(result[1]);
      callback(...result);
    });
  };
}

type Global = typeof globalThis & { __preheatAgent?: Agent };

/** One keep-alive agent per process for every outbound request made for a customer. */
export function outboundAgent(): Agent {
  const g = globalThis as Global;
  g.__preheatAgent ??= new Agent({ connect: createConnector(), connections: 64, keepAliveTimeout: 10_000 });
  return g.__preheatAgent;
}

/** Closes pooled connections; the next request opens new ones (their addresses checked again). */
export async function closeOutboundAgent(): Promise<void> {
  const g = globalThis as Global;
  const agent = g.__preheatAgent;
  g.__preheatAgent = undefined;
  await agent?.destroy();
}
