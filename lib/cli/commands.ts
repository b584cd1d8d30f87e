import { parseArgs } from "node:util";
import { findUserByEmail } from "@/lib/accounts/users";
import { apiKeyState, listApiKeys } from "@/lib/auth/api-keys";
import { parseScopeList, type Scope } from "@/lib/auth/scopes";
import { latestEmailsTo } from "@/lib/email/outbox";
import type { Database } from "@/lib/db";
import { DomainError } from "@/lib/core/errors";
import { listSigningKeys, RETIRED_KEY_LISTED_DAYS, rotateSigningKeys } from "@/lib/warm/signing-keys";
import { INTEGRATOR_USAGE } from "./integrator";
import { CLI_OPERATOR, OPERATOR_USAGE, organizationsCommand, plansCommand, usersCommand } from "./operator-commands";
import { createKeyForUser, revokeKeyAsOperator } from "@/lib/accounts/operator";
import { required, table, UsageError } from "./args";

export const USAGE = `Usage: npm run --silent cli -- <command>     (installed as a package: preheat <command>)

Operator commands, on this Preheat's own database:

  keys create --email <address> --scopes <comma list | all> [--name <name>] [--expires <ISO date | 30d>] [--sites <site ids, e.g. 3,5>]
      Creates the account and user if needed; prints only the key on stdout. With --sites the key
      sees only those sites of the organization and cannot register sites nor manage webhooks.
  keys list --email <address> [--json]
  keys revoke <id>
  emails --to <address> [--last <n>]
      The newest e-mails to an address (default 1), as text: read a sign-up or sign-in link when the
      server sends no e-mail (RESEND_API_KEY unset) and keeps it in its outbox.
  bot-keys list [--json]
      The keys warming calls are signed with (PREHEAT_BOT_SIGNATURES): key id, state, dates.
  bot-keys rotate
      Retires the key in use and makes the next one; workers sign with it within a minute. A retired
      key stays in /.well-known/http-message-signatures-directory for ${RETIRED_KEY_LISTED_DAYS} days.
${OPERATOR_USAGE}
The CLI works whether or not the server runs: it hands the command to a running server that owns
the embedded database, or opens the database itself. PREHEAT_DATA_DIR (default .data) and
DATABASE_URL choose the database, as for the server.

${INTEGRATOR_USAGE}`;

export type CommandResult = { code: number; stdout: string; stderr: string };

function parseExpiry(value: string | undefined): Date | null {
  if (!value) return null;
  const days = /^(\d+)d$/.exec(value);
  const date = days ? new Date(Date.now() + Number(days[1]) * 86_400_000) : new Date(value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--expires ${value}: give an ISO date (2027-01-31) or a number of days (30d).`);
  return date;
}

/** `--sites 3,5`: the site ids a key is limited to; absent, every site. */
function parseSiteIds(value: string | undefined): number[] | null {
  if (value === undefined) return null;
  const ids = value.split(",").map((part) => part.trim());
  if (!ids.length || ids.some((id) => !/^[1-9]\d{0,9}$/.test(id))) throw new UsageError(`--sites ${value}: give site ids separated by commas (3,5).`);
  return ids.map(Number);
}

async function keys(db: Database, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { email: { type: "string" }, scopes: { type: "string" }, name: { type: "string" }, expires: { type: "string" }, sites: { type: "string" }, json: { type: "boolean" } },
  });
  const [action, id] = positionals;
  if (action === "create") {
    let scopes: Scope[];
    try {
      scopes = parseScopeList(required(values.scopes, "--scopes"));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const siteIds = parseSiteIds(values.sites);
    const { key } = await createKeyForUser(db, required(values.email, "--email"), { name: values.name ?? "CLI key", scopes, expiresAt: parseExpiry(values.expires), siteIds }, CLI_OPERATOR);
    return `${key}\n`;
  }
  if (action === "list") {
    const user = await findUserByEmail(db, required(values.email, "--email"));
    if (!user) throw new DomainError(`No user with the e-mail address ${values.email}.`);
    if (user.accountId === null) throw new DomainError(`${values.email} belongs to no organization.`);
    const rows = (await listApiKeys(db, user.accountId)).map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      scopes: k.scopes,
      site_ids: k.siteIds,
      created_by: k.createdBy,
      state: apiKeyState(k),
      created_at: k.createdAt.toISOString(),
      last_used_at: k.lastUsedAt?.toISOString() ?? null,
      expires_at: k.expiresAt?.toISOString() ?? null,
    }));
    if (values.json) return `${JSON.stringify(rows, null, 2)}\n`;
    if (!rows.length) return "No API keys.\n";
    const cells = rows.map((r) => [
      String(r.id),
      r.name,
      `${r.prefix}…`,
      r.scopes.join(","),
      r.site_ids?.join(",") ?? "all",
      r.created_by ?? "-",
      r.state,
      r.created_at,
      r.last_used_at ?? "never",
      r.expires_at ?? "never",
    ]);
    return `${table(["ID", "NAME", "PREFIX", "SCOPES", "SITES", "CREATED BY", "STATE", "CREATED", "LAST USED", "EXPIRES"], cells)}\n`;
  }
  if (action === "revoke") {
    if (!id || !/^\d+$/.test(id)) throw new UsageError("keys revoke needs the key's numeric id (see keys list).");
    const key = await revokeKeyAsOperator(db, Number(id), CLI_OPERATOR);
    return `Revoked key ${key.id} (${key.prefix}…).\n`;
  }
  throw new UsageError(`Unknown keys command ${JSON.stringify(action ?? "")}.`);
}

async function emails(db: Database, args: string[]): Promise<string> {
  const { values } = parseArgs({ args, options: { to: { type: "string" }, last: { type: "string" } } });
  const last = Number(values.last ?? 1);
  if (!Number.isInteger(last) || last < 1 || last > 100) throw new UsageError("--last takes a whole number from 1 to 100.");
  const rows = await latestEmailsTo(db, required(values.to, "--to"), last);
  if (!rows.length) return `No e-mail to ${values.to}.\n`;
  return rows.map((row) => [`Date: ${row.createdAt.toISOString()}`, `To: ${row.toAddress}`, `Subject: ${row.subject}`, `Status: ${row.status}`, "", row.text.trim(), ""].join("\n")).join("\n");
}

async function botKeys(db: Database, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: "boolean" } } });
  const [action] = positionals;
  if (action === "list") {
    const listedSince = Date.now() - RETIRED_KEY_LISTED_DAYS * 86_400_000;
    const rows = (await listSigningKeys(db)).map((k) => ({
      key_id: k.keyId,
      state: !k.retiredAt ? "active" : k.retiredAt.getTime() > listedSince ? "retired, still listed" : "retired",
      created_at: k.createdAt.toISOString(),
      retired_at: k.retiredAt?.toISOString() ?? null,
    }));
    if (values.json) return `${JSON.stringify(rows, null, 2)}\n`;
    if (!rows.length) return "No signing keys: one is made when the first call is signed (PREHEAT_BOT_SIGNATURES=true).\n";
    return `${table(
      ["KEY ID", "STATE", "CREATED", "RETIRED"],
      rows.map((r) => [r.key_id, r.state, r.created_at, r.retired_at ?? ""]),
    )}\n`;
  }
  if (action === "rotate") {
    const { active, retired } = await rotateSigningKeys(db);
    const was = retired.length ? `retired ${retired.map((k) => k.keyId).join(", ")} (listed ${RETIRED_KEY_LISTED_DAYS} more days)` : "no key was in use";
    return `New signing key ${active.keyId}; ${was}.\n`;
  }
  throw new UsageError(`Unknown bot-keys command ${JSON.stringify(action ?? "")}.`);
}

/** Runs one CLI command against a database; the same code serves the CLI process and a running server. */
export async function runCommand(db: Database, argv: string[]): Promise<CommandResult> {
  const [command, ...rest] = argv;
  try {
    if (command === "keys") return { code: 0, stdout: await keys(db, rest), stderr: "" };
    if (command === "emails") return { code: 0, stdout: await emails(db, rest), stderr: "" };
    if (command === "bot-keys") return { code: 0, stdout: await botKeys(db, rest), stderr: "" };
    if (command === "users") return { code: 0, stdout: await usersCommand(db, rest), stderr: "" };
    if (command === "plans") return { code: 0, stdout: await plansCommand(db, rest), stderr: "" };
    if (command === "organizations") return { code: 0, stdout: await organizationsCommand(db, rest), stderr: "" };
    throw new UsageError(`Unknown command ${JSON.stringify(command ?? "")}.`);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      return { code: 2, stdout: "", stderr: `${(error as Error).message}\n\n${USAGE}\n` };
    }
    if (error instanceof DomainError) return { code: 1, stdout: "", stderr: `Error: ${error.message}\n` };
    throw error;
  }
}
