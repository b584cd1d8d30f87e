import { fork } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import path from "node:path";
import { signerFromJWK } from "web-bot-auth/crypto";
import { warmCall } from "@/lib/warm/call";
import { identifyingHeaders } from "@/lib/warm/identify";
import { PLAIN_REQUEST, type RunRequest } from "@/lib/warm/run-request";

/**
 * What identifying a warming call costs (issue 26): the Preheat-Verification header alone, and a
 * Web Bot Auth signature (web-bot-auth, Ed25519 through WebCrypto, a fresh 64-byte nonce each), first
 * on their own (N header sets), then on whole calls to the benches' local origin (its own process),
 * at the engine's usual concurrency, side by side with the same calls sent plain. Each round starts
 * with another mode, so that a slower minute of a shared machine falls on all of them.
 *
 * BENCH_SIGNING_CALLS (per mode and round, default 5000), BENCH_SIGNING_ROUNDS (default 3),
 * BENCH_SIGNING_CONCURRENCY (default 8).
 */

const CALLS = Number(process.env.BENCH_SIGNING_CALLS ?? 5000);
const ROUNDS = Number(process.env.BENCH_SIGNING_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_SIGNING_CONCURRENCY ?? 8);
process.env.PREHEAT_ALLOW_PRIVATE_NETWORK = "true";
process.env.PREHEAT_BASE_URL ??= "https://preheat.example";

function startOrigin(): Promise<{ port: number; stop: () => void }> {
  const child = fork(path.join(import.meta.dirname, "origin.ts"), { execArgv: ["--import", "tsx"], stdio: "inherit" });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("message", (message: { port: number }) => resolve({ port: message.port, stop: () => child.disconnect() }));
  });
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** `count` calls, CONCURRENCY at a time. */
async function calls(port: number, request: RunRequest, count: number) {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const outcome = await warmCall({ url: `http://127.0.0.1:${port}/p/${i}`, user_agent: "bot", language: null }, "fr", request);
      if (!outcome.ok) throw new Error(`call ${i} failed: ${outcome.error}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
}

async function headerSets(request: RunRequest, count: number) {
  for (let i = 0; i < count; i++) await identifyingHeaders(`https://shop.example/p/${i}`, request);
}

const { privateKey } = generateKeyPairSync("ed25519");
const signer = await signerFromJWK(privateKey.export({ format: "jwk" }) as JsonWebKey);
const modes: [string, RunRequest][] = [
  ["plain", PLAIN_REQUEST],
  ["verification header", { ...PLAIN_REQUEST, verification: "x".repeat(43) }],
  ["header + signature", { ...PLAIN_REQUEST, verification: "x".repeat(43), signer }],
];

const origin = await startOrigin();
try {
  await calls(origin.port, modes[2]![1], 500); // warm-up: connections, JIT, WebCrypto
  const build = new Map<string, number[]>();
  const whole = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, request] of [...modes.slice(round % modes.length), ...modes.slice(0, round % modes.length)]) {
      build.set(name, [...(build.get(name) ?? []), await timed(() => headerSets(request, CALLS))]);
      whole.set(name, [...(whole.get(name) ?? []), await timed(() => calls(origin.port, request, CALLS))]);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const plainCallMs = median(whole.get("plain")!);
  console.log(`${CALLS} calls per mode and round, ${ROUNDS} rounds (medians), ${CONCURRENCY} at a time, Node ${process.versions.node}`);
  console.log("mode                   identity alone (µs/call)   whole call (µs/call)   calls/s   vs plain");
  for (const [name] of modes) {
    const alone = (median(build.get(name)!) / CALLS) * 1000;
    const call = median(whole.get(name)!);
    console.log(
      `${name.padEnd(22)} ${alone.toFixed(1).padStart(24)}   ${((call / CALLS) * 1000).toFixed(1).padStart(20)}   ${Math.round(CALLS / (call / 1000))
        .toString()
        .padStart(7)}   ${(call / plainCallMs).toFixed(2)}×`,
    );
  }
} finally {
  origin.stop();
}
