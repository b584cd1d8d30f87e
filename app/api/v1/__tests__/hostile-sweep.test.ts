import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "@/lib/api/input";
import { tools } from "@/lib/mcp/tools";
import { openApiDocument } from "@/lib/openapi/document";
import { baseUrl, newKey } from "./support/api";

/** Each of these sends hundreds of requests: room for a loaded machine, where 30 s was not enough. */
const SWEEP_TIMEOUT_MS = 180_000;

// Every operation of the OpenAPI document, each input in turn given hostile values: whatever is
// sent, the answer is a JSON 4xx (or a success), never a 5xx. The ids are of nothing, so that no
// hostile value that happens to be valid changes anything but this file's own fresh account.

type Answer = { status: number; contentType: string; text: string };

/** One request with its path sent as written (fetch would not normalise it either, but a proxy might: this is what reaches the server). */
function send(method: string, path: string, options: { key?: string; body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers["content-type"] ??= "application/json";
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, contentType: response.headers["content-type"] ?? "", text: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

const deepArray = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const DEEP = 50_000;

/** Written into the path as they are: malformed or hostile encodings, numbers no column holds, NUL. */
const HOSTILE_PATH_VALUES = ["%ZZ", "%", "%C0%AF", "%FF%FE", "%00", "a%00b", "99999999999999999999999999", "-1", "0", "1e309", "1.5", "%2e%2e", "x".repeat(3000)];
/** Written into the query string as they are. */
const HOSTILE_QUERY_VALUES = ["%ZZ", "%00", "%C0%AF", "99999999999999999999999999", "-1", "1e309", "NaN", "", "x".repeat(3000)];
/** JSON texts, each given to one body field in turn. */
const HOSTILE_FIELD_VALUES = [
  '"\\u0000"',
  "1e400",
  "-1e400",
  "123456789012345678901234567890",
  "-0",
  "null",
  "true",
  "{}",
  '{"__proto__":{"polluted":1}}',
  "[]",
  '[["a"]]',
  `"${"x".repeat(100_000)}"`,
  '"\\ud800"',
  deepArray(DEEP),
];
/** Whole bodies. */
const HOSTILE_BODIES: (string | Buffer)[] = [
  deepArray(DEEP),
  deepObject(DEEP),
  `{"a":${deepArray(DEEP)}}`,
  "[]",
  "42",
  '"text"',
  "null",
  "\u0000",
  "{'a':1}",
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
];

type Operation = { method: string; path: string; operationId: string; token: boolean; pathParams: string[]; queryParams: string[]; bodyFields: string[] | null };

type SchemaObject = { $ref?: string; properties?: Record<string, unknown> };

/** The operations as the document publishes them, with the names of their inputs. */
function documentedOperations(): Operation[] {
  const document = openApiDocument() as unknown as {
    paths: Record<
      string,
      Record<string, { operationId: string; security?: unknown[]; parameters?: { in: string; name: string }[]; requestBody?: { content: Record<string, { schema: SchemaObject }> } }>
    >;
    components: { schemas: Record<string, SchemaObject> };
  };
  const resolve = (schema: SchemaObject): SchemaObject => (schema.$ref ? document.components.schemas[schema.$ref.split("/").pop()!]! : schema);
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const body = op.requestBody?.content["application/json"]?.schema;
      return {
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        token: op.security?.length === 0,
        pathParams: (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name),
        queryParams: (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
        bodyFields: body ? Object.keys(resolve(body).properties ?? {}) : null,
      };
    }),
  );
}

/** The path with each parameter given `values[name]`, or an id of nothing. */
const pathOf = (op: Operation, values: Record<string, string> = {}) => op.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? (name === "token" ? "phd_nothing-at-all" : "2000000000"));

/** Runs `work` over `items`, a few at a time: the server is shared with the other files. */
async function inTurn<T>(items: T[], work: (item: T) => Promise<void>, concurrency = 4): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const operations = documentedOperations();
let key: string;

beforeAll(async () => {
  key = await newKey();
});

/** What every answer must be: no 5xx, and a JSON body for a refusal (Next.js's own redirect of `/v1/sites/..` is text). */
function expectHandled(answer: Answer, what: string) {
  expect(answer.status, `${what}: ${answer.status} ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400) expect(answer.contentType, `${what}: ${answer.text.slice(0, 300)}`).toMatch(/^application\/json/);
}

describe("the hostile sweep over every operation of the OpenAPI document", () => {
  it("covers every operation", () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.filter((op) => op.bodyFields).length).toBeGreaterThan(10);
  });

  it(
    "answers hostile path values with a JSON 4xx: malformed percent-encoding is 400 invalid_path",
    async () => {
      const cases = operations.filter((op) => op.pathParams.length).flatMap((op) => op.pathParams.flatMap((name) => HOSTILE_PATH_VALUES.map((value) => ({ op, name, value }))));
      await inTurn(cases, async ({ op, name, value }) => {
        const path = pathOf(op, { [name]: value });
        const answer = await send(op.method, path, { key: op.token ? undefined : key, body: op.bodyFields ? "{}" : undefined });
        expectHandled(answer, `${op.method} ${path}`);
        if (/%(ZZ|$|C0|FF)/.test(value)) expect(JSON.parse(answer.text), `${op.method} ${path}`).toMatchObject({ code: "invalid_path" });
      });
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    "answers hostile query values with a JSON 4xx or a success",
    async () => {
      const cases = operations.flatMap((op) =>
        op.queryParams.flatMap((name) => [...HOSTILE_QUERY_VALUES.map((value) => `${name}=${value}`), `${name}=1&${name}=2`, `${name}[]=1`].map((query) => ({ op, query }))),
      );
      await inTurn(cases, async ({ op, query }) => {
        const path = `${pathOf(op)}?${query}`;
        expectHandled(await send(op.method, path, { key: op.token ? undefined : key }), `${op.method} ${path}`);
      });
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    "answers hostile values of each body field with a JSON 4xx",
    async () => {
      const cases = operations.flatMap((op) => (op.bodyFields ?? []).flatMap((field) => HOSTILE_FIELD_VALUES.map((value) => ({ op, body: `{${JSON.stringify(field)}:${value}}` }))));
      await inTurn(cases, async ({ op, body }) => {
        const answer = await send(op.method, pathOf(op), { key, body });
        expectHandled(answer, `${op.method} ${op.path} ${body.slice(0, 80)}`);
      });
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    "answers hostile bodies with a JSON 4xx: one nested 50,000 deep is 422 for every operation that reads a body",
    async () => {
      // Reads (GET) and deletes take no body: a server may close the connection on one it did not read.
      const cases = operations.filter((op) => op.bodyFields || op.method === "POST").flatMap((op) => HOSTILE_BODIES.map((body) => ({ op, body })));
      await inTurn(cases, async ({ op, body }) => {
        const answer = await send(op.method, pathOf(op), { key: op.token ? undefined : key, body });
        const what = `${op.method} ${op.path} ${body.slice(0, 40).toString()}`;
        expectHandled(answer, what);
        if (op.bodyFields && body.length > DEEP) expect(JSON.parse(answer.text), what).toMatchObject({ code: "validation_failed", error: expect.stringContaining(`${MAX_JSON_DEPTH} levels deep`) });
      });
    },
    SWEEP_TIMEOUT_MS,
  );

  it("answers the sign-up routes' hostile bodies with a JSON 4xx", async () => {
    for (const path of ["/api/dashboard/signup", "/api/dashboard/signup/confirm"]) {
      for (const body of HOSTILE_BODIES) {
        const answer = await send("POST", path, { body });
        expectHandled(answer, `POST ${path} ${body.slice(0, 40).toString()}`);
        if (body.length > DEEP) expect(answer.status).toBe(422);
      }
    }
  });
});

describe("the MCP server under hostile input", () => {
  const mcp = (body: string) => send("POST", "/mcp", { key, body, headers: { accept: "application/json, text/event-stream" } });

  it(
    "refuses a tool call nested 50,000 deep with a JSON 422, for every tool",
    async () => {
      for (const tool of tools) {
        const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool.name}","arguments":{"siteId":1,"runId":1,"boostId":1,"urls":${deepArray(DEEP)}}}}`;
        const answer = await mcp(body);
        expectHandled(answer, tool.name);
        expect(answer.status, tool.name).toBe(422);
        expect(JSON.parse(answer.text)).toMatchObject({ code: "validation_failed" });
      }
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    "answers hostile tool arguments without a 5xx",
    async () => {
      const cases = tools.flatMap((tool) => HOSTILE_FIELD_VALUES.slice(0, -1).map((value) => ({ tool, value })));
      await inTurn(cases, async ({ tool, value }) => {
        const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool.name}","arguments":{"siteId":${value},"runId":${value},"urls":${value},"limit":${value}}}}`;
        const answer = await mcp(body);
        expectHandled(answer, `${tool.name} ${value.slice(0, 40)}`);
        expect(answer.text, `${tool.name} ${value.slice(0, 40)}`).not.toContain("Internal server error");
      });
    },
    SWEEP_TIMEOUT_MS,
  );
});
