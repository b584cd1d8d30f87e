import { parseArgs } from "node:util";
import type { z } from "zod";
import {
  createPlan,
  deletePlan,
  findPlan,
  grantOperator,
  listOperators,
  listOrganizations,
  listPlans,
  type OrganizationRecord,
  organizationDetail,
  organizationIdOf,
  type PlanRecord,
  resumeOrganization,
  revokeOperator,
  setOrganizationPlan,
  suspendOrganization,
  updatePlan,
} from "@/lib/accounts/operator";
import { parseRegionList } from "@/lib/config/parsers";
import type { Database } from "@/lib/db";
import { planInputSchema, planUpdateSchema, suspensionInputSchema } from "@/lib/plans/schemas";
import { required, table, UsageError } from "./args";

export const OPERATOR_USAGE = `  users grant-operator --email <address>
      Opens the operator console (/operator) to this user: organizations, plans, suspension, workers,
      queues, keys and e-mails. Only this command grants it; the API and the dashboard never do.
  users revoke-operator --email <address>
  users operators [--json]
  plans list [--json]
  plans create --name <name> [limits]
  plans update <id | name> [--name <new name>] [limits]
      Limits (each left out, or "default", is the service's configuration): --monthly-calls <n>
      --sites <n> --max-concurrency <n> --regions <de,fr | all> --results <n per run>
      --verification <yes | no> --retention-days <n | forever>
  plans delete <id | name>
      Only a plan no organization is on.
  organizations list [--search <name or member address>] [--json]
  organizations show <id | member address> [--json]
  organizations set-plan <id | member address> --plan <id | name | none>
  organizations suspend <id | member address> --reason <text shown to its members> [--block-new-organizations]
      Its keys answer 403 account_suspended, its schedules and hooks start nothing, its runs stop.
      --block-new-organizations: its owners and admins may not create another organization either.
  organizations resume <id | member address>
`;

/** Who the audit log names for what the CLI does. */
export const CLI_OPERATOR = "operator (CLI)";

const LIMIT_FLAGS = {
  "monthly-calls": { type: "string" },
  sites: { type: "string" },
  "max-concurrency": { type: "string" },
  regions: { type: "string" },
  results: { type: "string" },
  verification: { type: "string" },
  "retention-days": { type: "string" },
} as const;

/** A number flag: absent stays absent, "default" (or "forever", "none") is null, anything else a number the schema checks. */
function limitValue(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (["default", "none", "forever", "unlimited"].includes(value)) return null;
  return Number(value);
}

function limitsFrom(values: Record<string, string | boolean | undefined>) {
  const regions = values.regions as string | undefined;
  const verification = values.verification as string | undefined;
  if (verification !== undefined && !["yes", "no"].includes(verification)) throw new UsageError("--verification takes yes or no.");
  let regionCodes: string[] | null | undefined;
  try {
    regionCodes = regions === undefined ? undefined : ["all", "default"].includes(regions) ? null : parseRegionList(regions);
  } catch (error) {
    throw new UsageError(`--regions: ${(error as Error).message}`);
  }
  return {
    monthly_calls: limitValue(values["monthly-calls"] as string | undefined),
    sites: limitValue(values.sites as string | undefined),
    max_site_concurrency: limitValue(values["max-concurrency"] as string | undefined),
    regions: regionCodes,
    run_results_max: limitValue(values.results as string | undefined),
    verification: verification === undefined ? undefined : verification === "yes",
    run_retention_days: limitValue(values["retention-days"] as string | undefined),
  };
}

function parsed<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new UsageError(result.error.issues.map((issue) => issue.message).join("; "));
  return result.data;
}

const shown = (value: number | string | null | undefined, none: string) => (value === null || value === undefined ? none : typeof value === "number" ? value.toLocaleString("en") : value);

function planTable(rows: PlanRecord[]): string {
  return table(
    ["ID", "NAME", "CALLS/MONTH", "SITES", "CONCURRENCY", "REGIONS", "RESULTS/RUN", "VERIFY", "RETENTION", "ORGANIZATIONS"],
    rows.map((p) => [
      String(p.id),
      p.name,
      shown(p.limits.monthly_calls, ""),
      shown(p.limits.sites, "no cap"),
      String(p.limits.max_site_concurrency),
      p.limits.regions?.join(",") ?? "all",
      shown(p.limits.run_results_max, ""),
      p.limits.verification ? "yes" : "no",
      p.limits.run_retention_days === null ? "forever" : `${p.limits.run_retention_days} days`,
      String(p.organizations),
    ]),
  );
}

function organizationTable(rows: OrganizationRecord[]): string {
  return table(
    ["ID", "NAME", "PLAN", "CALLS THIS MONTH", "SITES", "MEMBERS", "LAST ACTIVITY", "STATE"],
    rows.map((o) => [
      String(o.id),
      o.name,
      o.plan.name,
      `${shown(o.calls_this_month, "0")} / ${shown(o.monthly_calls, "")}`,
      String(o.sites),
      String(o.members),
      o.last_activity_at ?? "never",
      o.suspended ? `suspended: ${o.suspended.reason ?? ""}` : "active",
    ]),
  );
}

const asJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export async function usersCommand(db: Database, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { email: { type: "string" }, json: { type: "boolean" } } });
  const [action] = positionals;
  if (action === "grant-operator") {
    await grantOperator(db, required(values.email, "--email"));
    return `${values.email} may now open the operator console at /operator.\n`;
  }
  if (action === "revoke-operator") {
    await revokeOperator(db, required(values.email, "--email"));
    return `${values.email} may no longer open the operator console.\n`;
  }
  if (action === "operators") {
    const rows = await listOperators(db);
    if (values.json) return asJson(rows);
    if (!rows.length) return "No operator: grant one with users grant-operator --email <address>.\n";
    return `${table(
      ["E-MAIL", "SINCE"],
      rows.map((r) => [r.email, r.since]),
    )}\n`;
  }
  throw new UsageError(`Unknown users command ${JSON.stringify(action ?? "")}.`);
}

async function planNamed(db: Database, idOrName: string | undefined): Promise<PlanRecord> {
  if (!idOrName) throw new UsageError("Name the plan by its id or its name (plans list).");
  return findPlan(db, /^\d+$/.test(idOrName) ? Number(idOrName) : idOrName);
}

export async function plansCommand(db: Database, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { name: { type: "string" }, json: { type: "boolean" }, ...LIMIT_FLAGS } });
  const [action, which] = positionals;
  if (action === "list") {
    const rows = await listPlans(db);
    if (values.json) return asJson(rows);
    if (!rows.length) return "No plans: every organization has the service's configuration (plans create --name …).\n";
    return `${planTable(rows)}\n`;
  }
  if (action === "create") {
    const plan = await createPlan(db, parsed(planInputSchema, { name: required(values.name, "--name"), ...limitsFrom(values) }));
    return `Created plan ${plan.id}.\n${planTable([plan])}\n`;
  }
  if (action === "update") {
    const current = await planNamed(db, which);
    const plan = await updatePlan(db, current.id!, parsed(planUpdateSchema, { name: values.name, ...limitsFrom(values) }));
    return `${planTable([plan])}\n`;
  }
  if (action === "delete") {
    const plan = await planNamed(db, which);
    await deletePlan(db, plan.id!);
    return `Deleted plan ${plan.name}.\n`;
  }
  throw new UsageError(`Unknown plans command ${JSON.stringify(action ?? "")}.`);
}

export async function organizationsCommand(db: Database, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { search: { type: "string" }, plan: { type: "string" }, reason: { type: "string" }, "block-new-organizations": { type: "boolean" }, json: { type: "boolean" } },
  });
  const [action, which] = positionals;
  if (action === "list") {
    const { data } = await listOrganizations(db, { query: values.search }, { limit: 1000, offset: 0 });
    if (values.json) return asJson(data);
    if (!data.length) return "No organization.\n";
    return `${organizationTable(data)}\n`;
  }
  if (!which) throw new UsageError(`organizations ${action ?? ""} needs the organization's id or a member's e-mail address.`);
  const accountId = await organizationIdOf(db, which);
  if (action === "show") {
    const detail = await organizationDetail(db, accountId);
    if (values.json) return asJson(detail);
    return `${organizationTable([detail])}\n\n${table(
      ["MEMBER", "ROLE"],
      detail.member_list.map((m) => [m.email, m.role]),
    )}\n`;
  }
  if (action === "set-plan") {
    const planName = required(values.plan, "--plan");
    const planId = planName === "none" || planName === "default" ? null : (await planNamed(db, planName)).id;
    const detail = await setOrganizationPlan(db, accountId, planId, CLI_OPERATOR);
    return `${detail.name} is on the plan ${detail.plan.name}.\n`;
  }
  if (action === "suspend") {
    const suspension = parsed(suspensionInputSchema, { reason: required(values.reason, "--reason"), block_new_organizations: values["block-new-organizations"] ?? false });
    const detail = await suspendOrganization(db, accountId, suspension, CLI_OPERATOR);
    const blocked = suspension.block_new_organizations ? "; its owners and admins may not create another organization until it is resumed" : "";
    return `Suspended ${detail.name}; ${detail.runs_stopped} run(s) stopped${blocked}.\n`;
  }
  if (action === "resume") {
    const detail = await resumeOrganization(db, accountId, CLI_OPERATOR);
    return `Resumed ${detail.name}.\n`;
  }
  throw new UsageError(`Unknown organizations command ${JSON.stringify(action ?? "")}.`);
}
