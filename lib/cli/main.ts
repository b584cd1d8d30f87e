import { parseArgs } from "node:util";
import { findOrCreateUser, findUserByEmail } from "@/lib/accounts/users";
import { apiKeyState, createApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { parseScopeList } from "@/lib/auth/scopes";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { DomainError } from "@/lib/errors";

const USAGE = `Usage: npm run --silent cli -- <command>

  keys create --email <address> --scopes <comma list | all> [--name <name>] [--expires <ISO date | 30d>]
      Creates the account and user if needed; prints only the key on stdout.
  keys list --email <address> [--json]
  keys revoke <id>

The CLI uses a running server's embedded database when there is one, or opens it itself.
PREHEAT_DATA_DIR (default .data) and DATABASE_URL choose the database, as for the server.`;

class UsageError extends Error {}

function parseExpiry(value: string | undefined): Date | null {
  if (!value) return null;
  const days = /^(\d+)d$/.exec(value);
  const date = days ? new Date(Date.now() + Number(days[1]) * 86_400_000) : new Date(value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--expires ${value}: give an ISO date (2027-01-31) or a number of days (30d).`);
  return date;
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required.`);
  return value;
}

async function keys(handle: DatabaseHandle, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { email: { type: "string" }, scopes: { type: "string" }, name: { type: "string" }, expires: { type: "string" }, json: { type: "boolean" } },
  });
  const [action, id] = positionals;
  const { db } = handle;
  if (action === "create") {
    const scopes = parseScopeList(required(values.scopes, "--scopes"));
    const { user } = await findOrCreateUser(db, required(values.email, "--email"));
    const { key } = await createApiKey(db, { accountId: user.accountId, userId: user.id, name: values.name ?? "CLI key", scopes, expiresAt: parseExpiry(values.expires) });
    process.stdout.write(`${key}\n`);
    return;
  }
  if (action === "list") {
    const user = await findUserByEmail(db, required(values.email, "--email"));
    if (!user) throw new UsageError(`No user with the e-mail address ${values.email}.`);
    const rows = (await listApiKeys(db, user.accountId)).map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      scopes: k.scopes,
      state: apiKeyState(k),
      created_at: k.createdAt.toISOString(),
      last_used_at: k.lastUsedAt?.toISOString() ?? null,
      expires_at: k.expiresAt?.toISOString() ?? null,
    }));
    if (values.json) {
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return;
    }
    if (!rows.length) {
      process.stdout.write("No API keys.\n");
      return;
    }
    const table = rows.map((r) => [String(r.id), r.name, `${r.prefix}…`, r.scopes.join(","), r.state, r.created_at, r.last_used_at ?? "never", r.expires_at ?? "never"]);
    const header = ["ID", "NAME", "PREFIX", "SCOPES", "STATE", "CREATED", "LAST USED", "EXPIRES"];
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
    for (const row of [header, ...table]) process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()}\n`);
    return;
  }
  if (action === "revoke") {
    if (!id || !/^\d+$/.test(id)) throw new UsageError("keys revoke needs the key's numeric id (see keys list).");
    const key = await revokeApiKey(db, Number(id));
    process.stdout.write(`Revoked key ${key.id} (${key.prefix}…).\n`);
    return;
  }
  throw new UsageError(`Unknown keys command ${JSON.stringify(action ?? "")}.`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  if (command !== "keys") {
    process.stderr.write(`Unknown command ${JSON.stringify(command)}.\n\n${USAGE}\n`);
    return 2;
  }
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openDatabase({ preferShared: true });
    await keys(handle, rest);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof DomainError || error instanceof Error) {
      process.stderr.write(`Error: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await handle?.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
