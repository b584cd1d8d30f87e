/** Without an e-mail transport, links wait in the outbox: say where the operator finds them. */
export function NoEmailTransportNote({ email = "you@example.com" }: { email?: string }) {
  return (
    <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
      This server sends no e-mail (RESEND_API_KEY is not set): the link waits in its outbox. On the server, run{" "}
      <code className="break-all font-mono text-xs">npm run --silent cli -- emails --to {email}</code> to read it.
    </p>
  );
}
