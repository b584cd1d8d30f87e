import http from "node:http";
import type { AddressInfo } from "node:net";
import { findOrCreateUser } from "@/lib/accounts/users";
import type { AccountContext } from "@/lib/context";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { type EmbeddedJobs, startEmbeddedJobs } from "@/lib/worker/embedded";

export type LocalWorld = { handle: DatabaseHandle; ctx: AccountContext; jobs: EmbeddedJobs | undefined /** the origin's port */; port: number; stop: () => Promise<void> };

/**
 * What the domain tests stand on: a local origin answering every host with `answer` (reached
 * through PREHEAT_CONNECT_TO; DNS lookups refused, PREHEAT_DNS_SERVERS), an in-memory database with the account of `email`, and, with
 * `work`, the embedded worker working its queue. `stop` takes it all down.
 */
export async function startLocalWorld(answer: http.RequestListener, options: { email: string; work?: boolean }): Promise<LocalWorld> {
  const server = http.createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  process.env.PREHEAT_CONNECT_TO = `:80:127.0.0.1:${port}`;
  // The origin listens on TCP only: a DNS query to its port is refused at once, so a validation's
  // DNS proof fails without asking the machine's resolvers. A test with a DNS server sets its own.
  process.env.PREHEAT_DNS_SERVERS ??= `127.0.0.1:${port}`;
  delete process.env.DATABASE_URL;
  const handle = await openDatabase({ dataDir: "memory://" });
  const jobs = options.work ? await startEmbeddedJobs(handle, { work: true }) : undefined;
  const { user } = await findOrCreateUser(handle.db, options.email);
  return {
    handle,
    jobs,
    port,
    ctx: { db: handle.db, accountId: user.accountId },
    stop: async () => {
      await jobs?.stop();
      await handle.close();
      await new Promise((resolve) => server.close(resolve));
      delete process.env.PREHEAT_CONNECT_TO;
      if (process.env.PREHEAT_DNS_SERVERS === `127.0.0.1:${port}`) delete process.env.PREHEAT_DNS_SERVERS;
    },
  };
}
