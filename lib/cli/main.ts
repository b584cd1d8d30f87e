import { checkConfig, setting } from "@/lib/config";
import type { CommandResult } from "./commands";
import { isIntegratorCommand, runIntegratorCommand } from "./integrator";

// The database modules are loaded by the operator commands only: the integrator commands run on
// machines (a CI runner, an installed `preheat`) that have no database.

async function runLocally(argv: string[]): Promise<CommandResult> {
  const [{ openDatabase }, { runCommand }] = await Promise.all([import("@/lib/db"), import("./commands")]);
  const handle = await openDatabase();
  try {
    return await runCommand(handle.db, argv);
  } finally {
    await handle.close();
  }
}

async function execute(argv: string[]): Promise<CommandResult> {
  if (setting("DATABASE_URL")) return runLocally(argv);
  const [{ controlSocketPath, dataDirectory }, { DatabaseLockedError }, { sendCommand }] = await Promise.all([import("@/lib/db/paths"), import("@/lib/db/embedded-lock"), import("./control-socket")]);
  const socket = controlSocketPath(dataDirectory());
  // A server may be starting (it holds the lock before it listens): ask again for a few seconds.
  for (let attempt = 0; ; attempt++) {
    const answer = await sendCommand(socket, argv);
    if (answer) return answer;
    try {
      return await runLocally(argv);
    } catch (error) {
      if (!(error instanceof DatabaseLockedError) || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

async function main(argv: string[]): Promise<number> {
  if (isIntegratorCommand(argv[0])) {
    // Integrator commands read PREHEAT_API_URL and PREHEAT_API_KEY only: the rest of a CI runner's
    // environment (its own DATABASE_URL…) belongs to other programs, and checking it would refuse a good command.
    return runIntegratorCommand(argv).catch((error: Error) => {
      process.stderr.write(`Error: ${error.message}\n`);
      return 1;
    });
  }
  if (!argv.length || ["help", "--help", "-h"].includes(argv[0]!)) {
    const { USAGE } = await import("./commands");
    process.stdout.write(`${USAGE}\n`);
    return argv.length ? 0 : 2;
  }
  try {
    checkConfig();
  } catch (error) {
    process.stderr.write(`Error: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    const result = await execute(argv);
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    return result.code;
  } catch (error) {
    process.stderr.write(`Error: ${(error as Error).message}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
