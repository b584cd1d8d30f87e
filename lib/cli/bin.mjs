#!/usr/bin/env node
// `preheat`, the package's command: the TypeScript CLI run through tsx, from wherever it is installed.
import { register } from "node:module";
import { register as registerTsx } from "tsx/esm/api";

registerTsx();
// tsx maps tsconfig's `@/` paths for a project's own files, not for files under node_modules, where
// an installed package lives: this hook, asked first, maps them to the package's root.
const root = new URL("../../", import.meta.url).href;
const aliasHook = `export function resolve(specifier, context, next) {
  return next(specifier.startsWith("@/") ? new URL(specifier.slice(2), ${JSON.stringify(root)}).href : specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(aliasHook)}`);
await import(new URL("./main.ts", import.meta.url).href);
