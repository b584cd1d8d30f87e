import { notFound, redirect } from "next/navigation";
import { idString } from "@/lib/core/primitives";
import { currentUser } from "@/lib/accounts/next-auth";
import type { AccountContext } from "@/lib/context";
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
  const id = idString.safeParse(rawId);
  if (!id.success) notFound();
  try {
    return await load({ db: await getDb(), accountId: user.accountId }, id.data);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}
