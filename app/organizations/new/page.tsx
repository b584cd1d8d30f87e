import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { QueryProvider } from "@/components/query-provider";
import { NewOrganizationForm } from "@/components/team/new-organization-form";
import { LocalTime } from "@/components/ui/local-time";
import { pendingInvitationsTo } from "@/lib/accounts/invitations";
import { currentSession } from "@/lib/accounts/next-auth";
import { getDb } from "@/lib/db";

export const metadata: Metadata = { title: "New organization" };

/**
 * Where a user in no organization lands (new, or removed from the last one): they create one, named
 * by them, or wait for an invitation. A member reaches it from the organization menu to add another.
 */
export default async function NewOrganizationPage() {
  const session = await currentSession();
  if (session?.kind !== "member" && session?.kind !== "no_organization") redirect("/signin");
  const form = (
    <QueryProvider>
      <NewOrganizationForm label="Organization name" />
    </QueryProvider>
  );
  if (session.kind === "member")
    return (
      <div className="mx-auto max-w-lg space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-bold">New organization</h1>
        <p className="text-sm text-slate-600">An organization of its own, for sites, keys and members kept apart from the ones you work in now. You own it, and you stay a member of the others.</p>
        {form}
        <p className="text-sm text-slate-600">
          Or go back to{" "}
          <Link href="/sites" className="font-medium text-brand-700 underline">
            your sites
          </Link>
          .
        </p>
      </div>
    );
  const invitations = await pendingInvitationsTo(await getDb(), session.user.email);
  return (
    <div className="mx-auto max-w-lg space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-bold">You belong to no organization</h1>
      <p className="text-sm text-slate-700">{`Sites, boosts, runs and keys belong to an organization, and ${session.user.email} is a member of none. Create one, which you own, or wait for an invitation to an existing one.`}</p>
      <section aria-labelledby="create-heading" className="space-y-2">
        <h2 id="create-heading" className="text-base font-semibold">
          Create an organization
        </h2>
        {form}
      </section>
      <section aria-labelledby="wait-heading" className="space-y-2 border-t border-slate-100 pt-4">
        <h2 id="wait-heading" className="text-base font-semibold">
          Wait for an invitation
        </h2>
        {invitations.length ? (
          <>
            <p className="text-sm text-slate-700">These invitations to {session.user.email} are waiting. Each one is joined from the link in its e-mail.</p>
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
              {invitations.map((invitation) => (
                <li key={invitation.id}>
                  {`${invitation.organization}, as ${invitation.role}${invitation.invitedBy ? `, from ${invitation.invitedBy}` : ""}; the link works until `}
                  <LocalTime value={invitation.expiresAt.toISOString()} />
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="text-sm text-slate-700">{`No invitation to ${session.user.email} is waiting. An owner of an organization invites you from its Team page; the invitation comes by e-mail, and its link lets you join.`}</p>
        )}
      </section>
      <p className="border-t border-slate-100 pt-4 text-sm text-slate-600">
        Your Account page (password, two-factor sign-in, sessions, deleting your user) opens again once you belong to an organization.
      </p>
    </div>
  );
}
