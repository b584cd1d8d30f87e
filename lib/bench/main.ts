import { spawnSync } from "node:child_process";
import path from "node:path";

/** `npm run bench [-- sitemap|sitemap-index|warming|multisite]`: each bench in a process of its own; all by default. */
const benches: Record<string, string> = { sitemap: "sitemap-50k.ts", "sitemap-index": "sitemap-index.ts", warming: "warming.ts", multisite: "multisite.ts" };
const asked = process.argv.slice(2);
const names = asked.length ? asked : Object.keys(benches);
for (const name of names) {
  const file = benches[name];
  if (!file) {
    console.error(`Unknown bench ${name}: choose among ${Object.keys(benches).join(", ")}.`);
    process.exit(2);
  }
  console.log(`\n== ${name} ==`);
  const { status } = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", path.join(import.meta.dirname, file)], { stdio: "inherit" });
  if (status !== 0) process.exit(status ?? 1);
}
