/**
 * Without an e-mail transport (no RESEND_API_KEY) nothing is sent: the link waits in the server's
 * outbox, and only the operator's CLI prints it (the console shows that an e-mail went, never its
 * link). Said instead of "we sent", which would not be true.
 */
export function NoEmailTransportNote({ email }: { email?: string }) {
  return (
    <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
      This server sends no e-mail yet, so nothing was sent{email ? ` to ${email}` : ""}: the link waits in the server's outbox. Whoever runs the server prints it with{" "}
      <code className="break-all">npm run --silent cli -- emails --to {email ?? "your-address"}</code>, run in the server's folder.
    </p>
  );
}
