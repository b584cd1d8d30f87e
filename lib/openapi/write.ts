import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openApiDocument } from "./document";

/**
 * Writes the OpenAPI document to a file (default `.openapi/openapi.json`) for the tools that read
 * one: `npm run lint:openapi` (Redocly and Spectral) and `npm run openapi:types` (openapi-typescript).
 */
const target = path.resolve(process.argv[2] ?? ".openapi/openapi.json");
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
