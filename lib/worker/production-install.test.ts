import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { build } from "esbuild";
import { expect, it } from "vitest";

/**
 * `npm run worker` and the CLI run from a production install (`npm install --omit=dev` after a
 * build): every package they load, and tsx which runs them, must be a dependency, not a
 * devDependency.
 */
const root = path.resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { dependencies: Record<string, string>; scripts: Record<string, string> };

async function packagesLoadedBy(entry: string): Promise<Set<string>> {
  const packages = new Set<string>();
  await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    logLevel: "silent",
    alias: { "@": root },
    plugins: [
      {
        name: "record-packages",
        setup(builder) {
          builder.onResolve({ filter: /^[^./@]|^@[^/]+\// }, (args) => {
            if (args.path.startsWith("@/") || args.path.startsWith("node:") || builtinModules.includes(args.path.split("/")[0]!)) return undefined;
            const parts = args.path.split("/");
            packages.add(args.path.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  return packages;
}

it.each([
  ["npm run worker", "worker", "lib/worker/main.ts"],
  ["the CLI", "cli", "lib/cli/main.ts"],
])(
  "%s loads only dependencies",
  async (_label, script, entry) => {
    expect(manifest.scripts[script]).toContain(entry);
    expect(manifest.scripts[script]).toMatch(/^tsx /);
    expect(manifest.dependencies).toHaveProperty("tsx");
    const loaded = [...(await packagesLoadedBy(entry))].sort();
    expect(loaded.length).toBeGreaterThan(3);
    expect(loaded.filter((name) => !(name in manifest.dependencies))).toEqual([]);
  },
  60_000,
);
