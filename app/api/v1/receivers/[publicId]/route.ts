import { withPathToken } from "@/lib/api/handler";
import { readBodyBytes } from "@/lib/api/input";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/changes";
import { json } from "@/lib/api/responses";
import { receiveChange } from "@/lib/changes/receive";

/** No system sends a change event near this; a larger body is refused before it is read. */
const MAX_DELIVERY_BYTES = 1024 * 1024;

// POST /v1/receivers/{publicId} – a change event from a shop, a CMS or a host, verified by its signature
export const POST = withPathToken(operations.receiveChanges, async ({ db, params, request, attribute }) => {
  const body = await readBodyBytes(request, MAX_DELIVERY_BYTES);
  const headers = Object.fromEntries([...request.headers].map(([name, value]) => [name.toLowerCase(), value]));
  const url = new URL(request.url);
  const delivery = { method: request.method, path: `${url.pathname}${url.search}`, headers, body };
  const { repeat, answer, receiver } = await receiveChange(db, params.publicId, delivery);
  attribute({ accountId: receiver.accountId, actor: { type: "hook", label: `receiver ${receiver.id}` }, targetId: receiver.id });
  return json(answer, repeat ? 200 : 202);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
