import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The public API's paths (`/v1/...`) are served by one-line twins under app/v1 of the handlers, which
 * live under app/api/v1. Next.js's rewrite of `/v1` to `/api/v1` ran on every request, twice (the
 * router, then the route's own preparation, each compiling the destination again): without it, GET
 * /v1/runs sustained 1,470 requests/s against 1,206 to 1,245 (docs/benchmarks.md). `npm run
 * routes:v1` writes the twins; a test fails while one is missing, stale or left over.
 */
const HANDLERS = "app/api/v1";
const TWINS = "app/v1";
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Every route.ts under `dir`, relative to it ("" for the directory's own). */
function routeDirectories(dir: string, relative = ""): string[] {
  const here = path.join(dir, relative);
  if (!existsSync(here)) return [];
  const found = existsSync(path.join(here, "route.ts")) ? [relative] : [];
  for (const entry of readdirSync(here, { withFileTypes: true })) {
    if (entry.isDirectory() && !entry.name.startsWith("__")) found.push(...routeDirectories(dir, path.posix.join(relative, entry.name)));
  }
  return found.sort();
}

/** The HTTP methods a handler file exports (`export const GET`, `export const { PUT, DELETE } = …`). */
function exportedMethods(source: string): string[] {
  const exported = source
    .split("\n")
    .filter((line) => line.startsWith("export "))
    .join("\n");
  return METHODS.filter((method) => new RegExp(`\\b${method}\\b`).test(exported));
}

/** The twin of app/api/v1/`relative`/route.ts: its methods, re-exported. */
export function twinSource(relative: string, handlerSource: string): string {
  const target = path.posix.join("@", HANDLERS, relative, "route");
  return `// /v1${relative ? `/${relative}` : ""}: the handlers of ${path.posix.join(HANDLERS, relative, "route.ts")} (lib/api/public-routes.ts).\nexport { ${exportedMethods(handlerSource).join(", ")} } from "${target}";\n`;
}

/** What app/v1 must hold, by file path relative to `root`: one twin for each handler file. */
export function expectedTwins(root: string): Map<string, string> {
  const twins = new Map<string, string>();
  for (const relative of routeDirectories(path.join(root, HANDLERS))) {
    const handler = readFileSync(path.join(root, HANDLERS, relative, "route.ts"), "utf8");
    twins.set(path.posix.join(TWINS, relative, "route.ts"), twinSource(relative, handler));
  }
  return twins;
}

/** The twins that differ from what they must be, missing ones included, and the route files of app/v1 that have no handler. */
export function twinsOutOfStep(root: string, expected = expectedTwins(root)): { stale: string[]; leftOver: string[] } {
  const stale = [...expected].filter(([file, source]) => !existsSync(path.join(root, file)) || readFileSync(path.join(root, file), "utf8") !== source).map(([file]) => file);
  const leftOver = routeDirectories(path.join(root, TWINS))
    .map((relative) => path.posix.join(TWINS, relative, "route.ts"))
    .filter((file) => !expected.has(file));
  return { stale, leftOver };
}
