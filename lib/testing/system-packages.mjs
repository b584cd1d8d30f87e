#!/usr/bin/env node
// The Debian packages that the test suites start themselves (none of their services needs to run):
// PostgreSQL (the DATABASE_URL driver tests, test:postgres and the deploy suite start their own
// throw-away servers on 127.0.0.1), Chromium and its fonts (the Playwright suite; browser downloads are
// not possible on these machines), nginx (the deploy smoke suite runs its own in front of two servers;
// the package's own service is not used), Varnish (e2e/cache starts its own caches in front of a
// local origin) and dnsmasq (the DNS ownership proof's tests run their own DNS server on 127.0.0.1;
// dnsmasq-base is the binary without the package's service). `npm test` runs this first, so that one
// command passes on a fresh machine.
//
// All there: exits 0 and prints nothing. Some missing: as root with apt-get, installs them; otherwise,
// or with PREHEAT_SYSTEM_PACKAGES_CHECK_ONLY=1, prints the one command to run and exits 1.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const postgresInstalled = () => {
  try {
    return readdirSync("/usr/lib/postgresql").some((version) => existsSync(join("/usr/lib/postgresql", version, "bin", "initdb")));
  } catch {
    return false;
  }
};

// The paths the suites use: playwright.config.ts, deploy/smoke.test.ts and lib/testing/dns-server.ts
// take another binary from CHROMIUM_PATH, NGINX_PATH and DNSMASQ_PATH.
const missingPackages = () => [
  ...(postgresInstalled() ? [] : ["postgresql"]),
  ...(executable(process.env.CHROMIUM_PATH || "/usr/bin/chromium") ? [] : ["chromium", "fonts-liberation"]),
  ...(executable(process.env.NGINX_PATH || "/usr/sbin/nginx") ? [] : ["nginx"]),
  ...(executable("/usr/sbin/varnishd") ? [] : ["varnish"]),
  ...(executable(process.env.DNSMASQ_PATH || "/usr/sbin/dnsmasq") ? [] : ["dnsmasq-base"]),
];

const onPath = (command) => (process.env.PATH ?? "").split(delimiter).some((dir) => dir && executable(join(dir, command)));

// The tests make their own clusters: the postgresql package need not create and start a "main" one.
// An existing file keeps its other settings.
const noMainCluster = () => {
  const file = "/etc/postgresql-common/createcluster.conf";
  const line = "create_main_cluster = false";
  if (!existsSync(file)) {
    mkdirSync("/etc/postgresql-common", { recursive: true });
    writeFileSync(file, `${line}\n`);
    return;
  }
  const text = readFileSync(file, "utf8");
  const setting = /^[ \t]*#?[ \t]*create_main_cluster[ \t]*=.*$/m;
  writeFileSync(file, setting.test(text) ? text.replace(setting, line) : `${text.replace(/\n?$/, "\n")}${line}\n`);
};

const run = (command, args, quiet) => {
  const result = spawnSync(command, args, {
    stdio: ["ignore", quiet ? "ignore" : "inherit", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (result.status !== 0) {
    console.error(`system-packages: \`${command} ${args.join(" ")}\` failed (${result.error?.message ?? `exit ${result.status}`}).`);
    process.exit(1);
  }
};

const missing = missingPackages();
if (missing.length === 0) process.exit(0);

const root = process.getuid?.() === 0;
if (!root || !onPath("apt-get") || process.env.PREHEAT_SYSTEM_PACKAGES_CHECK_ONLY === "1") {
  console.error(`The test suites need Debian packages that are missing; run: ${root ? "" : "sudo "}apt-get install -y ${missing.join(" ")}`);
  process.exit(1);
}

console.error(`system-packages: installing ${missing.join(" ")} for the test suites`);
if (missing.includes("postgresql")) noMainCluster();
run("apt-get", ["update", "-qq"], false);
run("apt-get", ["install", "-y", "-qq", ...missing], true);
const still = missingPackages();
if (still.length > 0) {
  console.error(`system-packages: still missing after apt-get install: ${still.join(" ")}`);
  process.exit(1);
}
