/**
 * Without an e-mail transport, links wait in the outbox. A visitor is told so, not how the operator
 * reads it (the operator's command is in docs/guide/operators/installing.md and the operator console's E-mails page).
 */
export function NoEmailTransportNote({ email }: { email?: string }) {
  return (
    <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
      This server sends no e-mail yet: the link{email ? ` to ${email}` : ""} waits in its outbox, where the operator of this service can read it to you.
    </p>
  );
}
