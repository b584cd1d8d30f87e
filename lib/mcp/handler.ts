import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { admit, answer, budgetSubject } from "@/lib/api/handler";
import { MAX_BODY_BYTES, nestsTooDeep, readBodyText, tooDeepError } from "@/lib/api/input";
import { answerFromClientBudget } from "@/lib/api/methods";
import { getDb } from "@/lib/db";
import { mcpServerFor } from "./server";

const MCP_PATH = "/mcp";

/** A stateless server keeps no stream to open (GET) and no session to end (DELETE): the SDK's examples answer them so. */
function methodNotAllowed(): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }, { status: 405, headers: { allow: "POST" } });
}

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, stateless, with JSON answers (a fresh
 * server and transport for each request, so any server process can answer any request). The bearer
 * key is authenticated and draws on its rate-limit budget as on `/v1`, and the request is logged
 * like theirs; its scopes bound the tools (./server.ts).
 */
export function handleMcpRequest(request: Request): Promise<Response> {
  if (request.method !== "POST") return answerFromClientBudget(request, methodNotAllowed);
  return answer(request, { path: MCP_PATH }, async (meter) => {
    const db = await getDb();
    const admitted = await admit(request, db, meter);
    if ("refusal" in admitted) {
      if (admitted.refusal.status === 401) admitted.refusal.headers.set("www-authenticate", "Bearer");
      return admitted.refusal;
    }
    const { principal } = admitted;
    // The SDK parses and validates the JSON-RPC message by walking it: one nested past any need is refused first, as on /v1.
    const text = await readBodyText(request);
    if (nestsTooDeep(text)) throw tooDeepError();
    const headers = new Headers(request.headers);
    headers.delete("content-length");
    const read = new Request(request.url, { method: request.method, headers, body: text });
    const subject = budgetSubject(request, principal);
    let toolCalls = 0;
    const server = mcpServerFor({
      ctx: { db, accountId: principal.accountId, siteIds: principal.siteIds, trigger: { kind: "mcp", label: principal.prefix } },
      principal,
      requestId: meter.requestId,
      request,
      // The request paid for its first tool call; a JSON-RPC batch pays for each further one, so that batching does not multiply the budget.
      spend: async () => (++toolCalls > 1 ? meter.spend(db, subject) : undefined),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    try {
      return await transport.handleRequest(read);
    } finally {
      await server.close();
    }
  });
}
