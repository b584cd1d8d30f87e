import http from "node:http";
import net, { type AddressInfo } from "node:net";

/**
 * A CONNECT proxy, as a region's would be, that tunnels every request to 127.0.0.1:`port`
 * whatever its target, noting each target it was asked for.
 */
export async function startConnectProxy(port: number) {
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const proxy = http.createServer();
  proxy.on("connect", (req, client: net.Socket, head) => {
    tunnels.push(req.url ?? "");
    sockets.add(client);
    const upstream = net.connect(port, "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    uri: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    tunnels,
    stop: async () => {
      // Tunnels are no longer the server's connections: each is closed here.
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
