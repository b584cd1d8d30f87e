import { ForbiddenError } from "@/lib/core/errors";
import type { Database } from "@/lib/db";
import { type Standing, standingOf } from "./limits";

/** The operator's reason as a clause: its own closing stop is the sentence's. */
const reasonClause = (reason: string | null) => {
  const given = reason?.trim().replace(/[.!?\s]+$/, "");
  return given ? `: ${given}` : "";
};

/** What a suspended organization's members and keys are told, in one wording. */
function suspensionMessage(reason: string | null): string {
  return `This organization is suspended by the operator of this service${reasonClause(reason)}. Nothing of it warms until it is resumed; contact the operator.`;
}

/** What an owner or admin of an organization suspended with `block_new_organizations` is told on creating another. */
export function newOrganizationsBlockedMessage(organization: string, reason: string | null): string {
  return `${organization}, which you manage, is suspended by the operator of this service${reasonClause(reason)}. No new organization can be created until it is resumed; contact the operator.`;
}

/** The organization is suspended by the operator: 403 `account_suspended`, with the operator's reason. */
export class AccountSuspendedError extends ForbiddenError {
  constructor(
    readonly reason: string | null,
    message = suspensionMessage(reason),
  ) {
    super(message, undefined, "account_suspended");
  }

  override bodyFields() {
    return { reason: this.reason };
  }
}

/** Refuses work for a suspended organization (runs, warms, hooks, schedules): every way in checks here. */
function assertActive(standing: Standing): void {
  if (standing.suspension) throw new AccountSuspendedError(standing.suspension.reason);
}

/** The organization's standing, once it is known not to be suspended. */
export async function activeStanding(db: Database, accountId: number): Promise<Standing> {
  const standing = await standingOf(db, accountId);
  assertActive(standing);
  return standing;
}
