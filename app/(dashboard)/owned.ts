import { notFound, redirect } from "next/navigation";
import { idString } from "@/lib/core/primitives";
import { currentUser } from "@/lib/accounts/next-auth";
import type { AccountContext } from "@/lib/context";
import type { Addressee } from "@/lib/email/outbox";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/core/errors";

/**
 * Loads a record of the signed-in account for a page, or answers the page with a 404: another
 * account's record looks exactly like one that does not exist, as in the API.
 */
export async function ownedOr404<T>(rawId: string, load: (ctx: AccountContext, id: number) => Promise<T>): Promise<T> {
  const user = await currentUser();
  if (!user) redirect("/signin");
  // The organization requires a second factor the member has not turned on: nothing of it is shown yet.
  if (user.mustEnableTwoFactor) redirect("/account");
  return loadOr404(rawId, async (id) => load({ db: await getDb(), accountId: user.accountId }, id));
}

/** Loads a record addressed to the signed-in user (an e-mail), whatever the organization; anyone else's is a 404. */
export async function addressedOr404<T>(rawId: string, load: (addressee: Addressee, id: number) => Promise<T>): Promise<T> {
  const user = await currentUser();
  if (!user) redirect("/signin");
  return loadOr404(rawId, async (id) => load({ db: await getDb(), email: user.email }, id));
}

async function loadOr404<T>(rawId: string, load: (id: number) => Promise<T>): Promise<T> {
  const id = idString.safeParse(rawId);
  if (!id.success) notFound();
  try {
    return await load(id.data);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}
