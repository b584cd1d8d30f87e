import { getDb } from "@/lib/db";
import { keyDirectory } from "@/lib/warm/signing-keys";

// GET /.well-known/http-message-signatures-directory – the public keys warming calls are signed with (Web Bot Auth), no key needed
export const dynamic = "force-dynamic";

export async function GET() {
  const { body, headers } = await keyDirectory(await getDb());
  return new Response(body, { headers });
}
