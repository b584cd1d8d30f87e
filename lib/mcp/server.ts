import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { actorOf, recordAudited } from "@/lib/api/audit";
import { toErrorResponse } from "@/lib/api/errors";
import { missingScopeMessage } from "@/lib/api/handler";
import { parseBody, validationFailed } from "@/lib/api/input";
import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import type { AccountContext } from "@/lib/context";
import { ForbiddenError } from "@/lib/core/errors";
import { assertKeyReaches } from "@/lib/sites/site-limit";
import { version } from "@/package.json";
import { type McpTool, tools } from "./tools";

/** Who calls the tools of one request, and what each call costs. */
export type ToolCaller = {
  ctx: AccountContext;
  principal: ApiKeyPrincipal;
  requestId?: string;
  /** The MCP request: its client address goes into the audit log of the tools that change state. */
  request?: Request;
  /** Takes a point of the caller's API budget for a tool call: the 429 answer once it is spent. */
  spend: () => Promise<Response | undefined>;
};

/**
 * What tools/list shows of a tool's input: the JSON Schema of its operation's path parameters and
 * query or body, as one object. The SDK itself is handed a schema that lets every argument through,
 * so that the API's own parse judges them below and a refusal is the API's sentence, not the SDK's.
 */
function advertisedInput({ operation: { params, query, body } }: McpTool) {
  const { $schema: _draft, ...jsonSchema } = z.toJSONSchema(z.object({ ...params?.shape, ...query?.shape, ...body?.shape }), { io: "input", target: "draft-7" });
  return z.looseObject({}).meta(jsonSchema);
}

const advertised = new Map(tools.map((tool) => [tool.name, advertisedInput(tool)]));

/**
 * In a URL, path and query values are text and an absent one is left out; a tool's arguments are
 * JSON, where ids are numbers and optional values may be null. Written as the URL would carry them,
 * they are read by the very schemas of the route.
 */
function asUrlValues(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([name, value]) => [name, typeof value === "number" || typeof value === "boolean" ? String(value) : value]),
  );
}

function parseUrlValues<T extends z.ZodType>(schema: T, args: Record<string, unknown>): z.output<T> {
  const result = schema.safeParse(asUrlValues(args));
  if (!result.success) throw validationFailed(result.error);
  return result.data;
}

/** Splits the arguments into the operation's path parameters and its query or body, each parsed as the route parses it. */
function parseArguments({ params, query, body }: McpTool["operation"], args: Record<string, unknown>) {
  const pathNames = new Set(Object.keys(params?.shape ?? {}));
  const pathArgs = Object.fromEntries(Object.entries(args).filter(([name]) => pathNames.has(name)));
  const otherArgs = Object.fromEntries(Object.entries(args).filter(([name]) => !pathNames.has(name)));
  return {
    params: params && parseUrlValues(params, pathArgs),
    query: query && parseUrlValues(query, otherArgs),
    body: body && parseBody(JSON.stringify(otherArgs), body),
  };
}

/** A tool that changes state is recorded in the audit log as its operation is (lib/api/audit.ts), with the tool's path arguments as the path parameters. */
async function auditToolCall(tool: McpTool, args: Record<string, unknown>, body: unknown, answerText: string, caller: ToolCaller): Promise<void> {
  const { audit, params, path, status } = tool.operation;
  if (!audit || !caller.request) return;
  const pathArgs = asUrlValues(Object.fromEntries(Object.entries(args).filter(([name]) => name in (params?.shape ?? {}))));
  await recordAudited(audit, new Response(answerText, { status }), {
    db: caller.ctx.db,
    accountId: caller.ctx.accountId,
    actor: actorOf(caller.principal),
    request: caller.request,
    params: pathArgs as Record<string, string>,
    path,
    bodyText: "",
    body,
    requestId: caller.requestId,
  });
}

const toolError = (sentence: string): CallToolResult => ({ isError: true, content: [{ type: "text", text: sentence }] });

/** The sentence of an API error answer. */
async function sentenceOf(answer: Response): Promise<string> {
  return ((await answer.json()) as { error: string }).error;
}

/**
 * Calls a tool as the API answers its operation: budget, scope, input, then the domain call. The
 * answer is the API's JSON, structured and as text; a failure is a tool error with the sentence the
 * API would answer (lib/api/errors.ts maps it, and masks and logs what is unexpected).
 */
async function callTool(tool: McpTool, args: Record<string, unknown>, caller: ToolCaller): Promise<CallToolResult> {
  try {
    const refusal = await caller.spend();
    if (refusal) return toolError(await sentenceOf(refusal));
    const { scope } = tool.operation;
    if (scope && !caller.principal.scopes.includes(scope)) throw new ForbiddenError(missingScopeMessage(scope));
    assertKeyReaches(tool.operation, caller.principal);
    const input = parseArguments(tool.operation, args);
    const text = JSON.stringify(await tool.answer(caller.ctx, input));
    await auditToolCall(tool, args, input.body, text, caller);
    return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
  } catch (error) {
    return toolError(await sentenceOf(toErrorResponse(error, caller.requestId)));
  }
}

/** A server for one request of one API key. Every tool is listed; the key's scopes decide which ones answer. */
export function mcpServerFor(caller: ToolCaller): McpServer {
  const server = new McpServer({ name: "preheat", version });
  for (const tool of tools) {
    const { scope, method } = tool.operation;
    server.registerTool(
      tool.name,
      {
        description: scope ? `${tool.description} Needs an API key with the ${scope} scope.` : tool.description,
        inputSchema: advertised.get(tool.name)!,
        annotations: { readOnlyHint: method === "get", destructiveHint: false },
      },
      (args) => callTool(tool, args, caller),
    );
  }
  return server;
}
