import { checkConfig, setting } from "@/lib/config";
import { dataDirectory, controlSocketPath } from "@/lib/db/paths";
import { openDatabase } from "@/lib/db";
import { DatabaseLockedError } from "@/lib/db/embedded-lock";
import { type CommandResult, runCommand, USAGE } from "./commands";
import { sendCommand } from "./control-socket";

async function runLocally(argv: string[]): Promise<CommandResult> {
  const handle = await openDatabase();
  try {
    return await runCommand(handle.db, argv);
  } finally {
    await handle.close();
  }
}

async function execute(argv: string[]): Promise<CommandResult> {
  if (setting("DATABASE_URL")) return runLocally(argv);
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
  try {
    checkConfig();
  } catch (error) {
    process.stderr.write(`Error: ${(error as Error).message}\n`);
    return 1;
  }
  if (!argv.length || ["help", "--help", "-h"].includes(argv[0]!)) {
    process.stdout.write(`${USAGE}\n`);
    return argv.length ? 0 : 2;
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
