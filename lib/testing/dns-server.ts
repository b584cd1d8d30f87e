import { type ChildProcess, spawn } from "node:child_process";
import dgram from "node:dgram";
import { Resolver } from "node:dns/promises";
import net from "node:net";

/** Debian's dnsmasq (package dnsmasq-base, installed by lib/testing/system-packages.mjs); DNSMASQ_PATH names another binary. */
const DNSMASQ = process.env.DNSMASQ_PATH || "/usr/sbin/dnsmasq";

export type DnsRecords = {
  /** A TXT record each: its name, then its strings (several strings make one record, as a long value is split). */
  txt?: [name: string, ...strings: string[]][];
  /** `alias` answers as a CNAME to `target`. */
  cname?: [alias: string, target: string][];
};

export type DnsServer = { port: number; server: string; stop: () => Promise<void> };

/** A port free for both UDP and TCP on 127.0.0.1 right now: dnsmasq listens on both. */
export async function freeDnsPort(): Promise<number> {
  for (;;) {
    const udp = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
    const { port } = udp.address();
    const tcp = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      tcp.once("error", () => resolve(false));
      tcp.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (free) await new Promise((resolve) => tcp.close(resolve));
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    if (free) return port;
  }
}

async function answers(port: number): Promise<boolean> {
  const resolver = new Resolver({ timeout: 200, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  try {
    await resolver.resolveTxt("ready.probe.test");
    return true;
  } catch (error) {
    // NXDOMAIN is an answer: the server is up.
    return (error as NodeJS.ErrnoException).code === "ENOTFOUND";
  }
}

/**
 * A real DNS server (dnsmasq) on 127.0.0.1:`port` holding `records`, in the foreground and reading
 * no file of the machine's: no upstream resolver (it asks nobody else), no /etc/hosts, and the
 * `.test` names it does not hold answered NXDOMAIN. Resolves once it answers.
 */
export async function startDnsServer(records: DnsRecords, port?: number): Promise<DnsServer> {
  const listenPort = port ?? (await freeDnsPort());
  const args = [
    "--keep-in-foreground",
    "--log-facility=-",
    `--port=${listenPort}`,
    "--listen-address=127.0.0.1",
    "--bind-interfaces",
    "--no-resolv",
    "--no-hosts",
    "--conf-file=/dev/null",
    "--pid-file=",
    "--local=/test/",
    ...(records.txt ?? []).map(([name, ...strings]) => `--txt-record=${name},${strings.join(",")}`),
    ...(records.cname ?? []).map(([alias, target]) => `--cname=${alias},${target}`),
  ];
  let output = "";
  const child: ChildProcess = spawn(DNSMASQ, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const failed = new Promise<never>((_, reject) => {
    child.once("error", (error) => reject(new Error(`${DNSMASQ} could not start (apt-get install dnsmasq-base): ${error.message}`)));
    child.once("exit", (code) => reject(new Error(`dnsmasq exited (${code}):\n${output}`)));
  });
  failed.catch(() => undefined);
  const deadline = Date.now() + 10_000;
  while (!(await Promise.race([answers(listenPort), failed]))) {
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`dnsmasq did not answer within 10 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port: listenPort,
    server: `127.0.0.1:${listenPort}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A UDP socket on 127.0.0.1 that takes DNS queries and never answers them: a resolver that is down or filtered. */
export async function startSilentDnsServer(port = 0): Promise<DnsServer & { queries: () => number }> {
  const socket = dgram.createSocket("udp4");
  let queries = 0;
  socket.on("message", () => queries++);
  await new Promise<void>((resolve) => socket.bind(port, "127.0.0.1", resolve));
  const bound = socket.address().port;
  return {
    port: bound,
    server: `127.0.0.1:${bound}`,
    queries: () => queries,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
