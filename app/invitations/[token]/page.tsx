import type { Metadata } from "next";
import { InvitationAnswer } from "@/components/team/invitation-answer";
import { ErrorNote } from "@/components/ui/card";
import { invitationByToken } from "@/lib/accounts/invitations";
import { signedInUser } from "@/lib/accounts/next-auth";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/passwords";
import { roleAbilities } from "@/lib/core/roles";
import { getDb } from "@/lib/db";

export const metadata: Metadata = { title: "Invitation" };

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = token.length <= 200 ? await invitationByToken(await getDb(), token) : undefined;
  const user = await signedInUser();
  return (
    <div className="mx-auto max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-xl font-bold">{invitation ? `Join ${invitation.organization}` : "Invitation"}</h1>
      {!invitation ? (
        <ErrorNote error="This invitation link is not valid (a newer one may have been sent): ask for a new invitation." />
      ) : invitation.state !== "pending" ? (
        <ErrorNote error={`This invitation was ${invitation.state}: ask ${invitation.invitedBy ?? "the organization's owners"} for a new one.`} />
      ) : (
        <>
          <p className="mb-4 text-sm text-slate-700">
            {`${invitation.invitedBy ?? "An owner"} invites ${invitation.email} to ${invitation.organization} as ${invitation.role}. ${roleAbilities(invitation.role)}`}
          </p>
          <InvitationAnswer
            token={token}
            email={invitation.email}
            organization={invitation.organization}
            signedInAs={user?.email ?? null}
            hasUser={invitation.hasUser}
            minPasswordLength={MIN_PASSWORD_LENGTH}
          />
        </>
      )}
    </div>
  );
}
