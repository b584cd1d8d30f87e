import { handleMcpRequest } from "@/lib/mcp/handler";

// The MCP SDK and the database drivers need Node; every answer depends on the request's key.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// POST /mcp – the Model Context Protocol over Streamable HTTP, authenticated by an API key (docs/guide/integrators/mcp.md)
export const POST = handleMcpRequest;

// GET, DELETE /mcp – 405: the server is stateless, with no stream to open and no session to end
export const GET = handleMcpRequest;
export const DELETE = handleMcpRequest;
