import { chmodSync, rmSync } from "node:fs";
import net from "node:net";
import type { Database } from "@/lib/db";
import { type CommandResult, runCommand } from "./commands";

/**
 * A running server owns the embedded database; the CLI hands it commands over this local socket
 * (readable by the same user only) instead of opening the database a second time.
 */
export async function serveCommands(db: Database, socketPath: string): Promise<() => Promise<void>> {
  rmSync(socketPath, { force: true }); // left behind by a process that died
  const server = net.createServer((socket) => {
    let input = "";
    socket.setEncoding("utf8");
    socket.on("data", async (chunk) => {
      input += chunk;
      if (!input.includes("\n")) return;
      let result: CommandResult;
      try {
        const { argv } = JSON.parse(input.slice(0, input.indexOf("\n"))) as { argv: string[] };
        result = await runCommand(db, argv);
      } catch (error) {
        console.error("[cli] command failed", error);
        result = { code: 1, stdout: "", stderr: "Error: the command failed; see the server log.\n" };
      }
      socket.end(`${JSON.stringify(result)}\n`);
    });
    socket.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      rmSync(socketPath, { force: true });
    });
}

/** Sends the command to a running server; undefined when none listens on the socket. */
export function sendCommand(socketPath: string, argv: string[]): Promise<CommandResult | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let output = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${JSON.stringify({ argv })}\n`));
    socket.on("data", (chunk) => (output += chunk));
    socket.on("end", () => {
      try {
        resolve(JSON.parse(output) as CommandResult);
      } catch {
        reject(new Error("The server's answer could not be read."));
      }
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") resolve(undefined);
      else reject(error);
    });
  });
}
