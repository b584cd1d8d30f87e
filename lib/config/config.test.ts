import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkConfig, ConfigError, configProblems, setting, settingDefault, VARIABLES, type VariableName } from "@/lib/config";
import { connectTarget } from "@/lib/fetch/connect-to";
import { clientAddress, PEER_ADDRESS_HEADER, trustedProxies } from "@/lib/auth/client-address";
import { publicBaseUrl } from "@/lib/config/base-url";
import { defaultSiteConcurrency } from "@/lib/sites/pace";
import { regionProxyUrl } from "@/lib/warm/egress";

const root = path.resolve(import.meta.dirname, "../..");
const names = Object.keys(VARIABLES) as VariableName[];

/** Every declared variable unset for the test, and put back afterwards. */
let saved: Record<string, string | undefined>;
beforeEach(() => {
  saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  for (const name of names) delete process.env[name];
});
afterEach(() => {
  for (const name of names) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

function problemOf(name: VariableName, value: string): string {
  process.env[name] = value;
  try {
    setting(name);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`${name}=${JSON.stringify(value)} was accepted`);
}

describe("the declarations", () => {
  it("declare every variable the product read before, and the two new ones", () => {
    const expected = [
      "DATABASE_URL",
      "DATABASE_POOL_SIZE",
      "PREHEAT_DATA_DIR",
      "PREHEAT_BASE_URL",
      "PORT",
      "NEXTAUTH_URL",
      "NEXTAUTH_SECRET",
      "AUTH_SECRET",
      "RESEND_API_KEY",
      "RESEND_BASE_URL",
      "EMAIL_FROM",
      "INNGEST_EVENT_KEY",
      "INNGEST_SIGNING_KEY",
      "INNGEST_DEV",
      "INNGEST_BASE_URL",
      "PREHEAT_EMBEDDED_WORKER",
      "PREHEAT_WORKER_REGIONS",
      "PREHEAT_WORKER_NICE",
      "PREHEAT_TRUSTED_PROXIES",
      "PREHEAT_CONNECT_TO",
      "PREHEAT_ALLOW_PRIVATE_NETWORK",
      "PREHEAT_MONTHLY_CALL_QUOTA",
      "PREHEAT_RATE_LIMIT_PER_MINUTE",
      "PREHEAT_SITE_CONCURRENCY",
      "PREHEAT_SITE_MAX_CONCURRENCY",
      "PREHEAT_SITEMAP_CHILDREN_AT_ONCE",
      "PREHEAT_SITEMAP_MAX_AGE_SECONDS",
      "PREHEAT_VERIFY_DELAY_SECONDS",
      "PREHEAT_RUN_RESULTS_MAX",
      "PREHEAT_JOB_CONCURRENCY",
      "PREHEAT_JOB_EXPIRE_SECONDS",
      "PREHEAT_JOB_RETRY_DELAY_SECONDS",
      "PREHEAT_JOBS_POLL_SECONDS",
      "PREHEAT_JOBS_MAINTENANCE_SECONDS",
      "PREHEAT_RUNS_PER_FETCH",
      "PREHEAT_SITE_SLOT_TTL_SECONDS",
      "PREHEAT_WORKER_MAX_IN_FLIGHT",
      "PREHEAT_REGION_PROXY_DE",
      "PREHEAT_REGION_PROXY_US",
      "PREHEAT_METRICS_TOKEN",
      "PREHEAT_LOG_LEVEL",
    ];
    expect(names).toEqual(expect.arrayContaining(expected));
    for (const name of names) expect(VARIABLES[name].description, name).toMatch(/\S.*\.$/);
  });

  it("keep the defaults the product had", () => {
    const defaults: Partial<Record<VariableName, unknown>> = {
      PORT: 3000,
      PREHEAT_DATA_DIR: ".data",
      DATABASE_URL: undefined,
      DATABASE_POOL_SIZE: 10,
      PREHEAT_MONTHLY_CALL_QUOTA: 100_000,
      PREHEAT_RATE_LIMIT_PER_MINUTE: 600,
      EMAIL_FROM: "Preheat <reports@preheat.localhost>",
      PREHEAT_EMBEDDED_WORKER: true,
      PREHEAT_ALLOW_PRIVATE_NETWORK: false,
      PREHEAT_JOB_CONCURRENCY: 4,
      PREHEAT_RUNS_PER_FETCH: 250,
      PREHEAT_WORKER_MAX_IN_FLIGHT: 2000,
      PREHEAT_WORKER_NICE: 10,
      PREHEAT_SITE_SLOT_TTL_SECONDS: 10,
      PREHEAT_JOB_EXPIRE_SECONDS: undefined,
      PREHEAT_JOB_RETRY_DELAY_SECONDS: undefined,
      PREHEAT_JOBS_POLL_SECONDS: 1,
      PREHEAT_JOBS_MAINTENANCE_SECONDS: 60,
      PREHEAT_SITE_CONCURRENCY: 4,
      PREHEAT_SITE_MAX_CONCURRENCY: 16,
      PREHEAT_VERIFY_DELAY_SECONDS: 5,
      PREHEAT_RUN_RESULTS_MAX: 100_000,
      PREHEAT_SITEMAP_CHILDREN_AT_ONCE: 4,
      PREHEAT_SITEMAP_MAX_AGE_SECONDS: 3600,
      PREHEAT_LOG_LEVEL: "info",
      PREHEAT_METRICS_TOKEN: undefined,
    };
    for (const [name, value] of Object.entries(defaults)) expect(setting(name as VariableName), name).toEqual(value);
    expect(setting("PREHEAT_WORKER_REGIONS")).toEqual([]);
    expect(setting("PREHEAT_TRUSTED_PROXIES")).toEqual([]);
    expect(setting("PREHEAT_CONNECT_TO").size).toBe(0);
    expect(setting("PREHEAT_DNS_SERVERS")).toEqual([]);
    expect(settingDefault("PREHEAT_MONTHLY_CALL_QUOTA")).toBe(100_000);
    expect(publicBaseUrl()).toBe("http://localhost:3000");
  });

  it("treat an empty or blank value as unset", () => {
    process.env.PREHEAT_SITE_CONCURRENCY = "";
    process.env.DATABASE_URL = "";
    process.env.PREHEAT_EMBEDDED_WORKER = "  ";
    expect(setting("PREHEAT_SITE_CONCURRENCY")).toBe(4);
    expect(setting("DATABASE_URL")).toBeUndefined();
    expect(setting("PREHEAT_EMBEDDED_WORKER")).toBe(true);
    expect(configProblems()).toEqual([]);
  });
});

describe("setting", () => {
  it("reads the environment at each call", () => {
    process.env.PREHEAT_SITE_CONCURRENCY = "2";
    expect(setting("PREHEAT_SITE_CONCURRENCY")).toBe(2);
    process.env.PREHEAT_SITE_CONCURRENCY = "7";
    expect(setting("PREHEAT_SITE_CONCURRENCY")).toBe(7);
    delete process.env.PREHEAT_SITE_CONCURRENCY;
    expect(setting("PREHEAT_SITE_CONCURRENCY")).toBe(4);
    process.env.PREHEAT_SITE_CONCURRENCY = "abc";
    expect(() => setting("PREHEAT_SITE_CONCURRENCY")).toThrow(ConfigError);
    process.env.PREHEAT_SITE_CONCURRENCY = "3";
    expect(setting("PREHEAT_SITE_CONCURRENCY")).toBe(3);
  });

  it("parses what the product accepted before the same way", () => {
    process.env.PREHEAT_JOBS_POLL_SECONDS = "0.5";
    process.env.PREHEAT_VERIFY_DELAY_SECONDS = " 0.3 ";
    process.env.PREHEAT_SITEMAP_MAX_AGE_SECONDS = "0";
    process.env.PREHEAT_MONTHLY_CALL_QUOTA = "1000000000";
    process.env.PREHEAT_EMBEDDED_WORKER = "false";
    process.env.PREHEAT_ALLOW_PRIVATE_NETWORK = "true";
    process.env.PREHEAT_JOB_EXPIRE_SECONDS = "60";
    process.env.PREHEAT_BASE_URL = "https://preheat.example/";
    process.env.RESEND_BASE_URL = "http://127.0.0.1:9//";
    process.env.PREHEAT_WORKER_REGIONS = "de, uk,DE";
    process.env.PREHEAT_SITE_CONCURRENCY = "40";
    process.env.INNGEST_DEV = "1";
    expect(setting("PREHEAT_JOBS_POLL_SECONDS")).toBe(0.5);
    expect(setting("PREHEAT_VERIFY_DELAY_SECONDS")).toBe(0.3);
    expect(setting("PREHEAT_SITEMAP_MAX_AGE_SECONDS")).toBe(0);
    expect(setting("PREHEAT_MONTHLY_CALL_QUOTA")).toBe(1_000_000_000);
    expect(setting("PREHEAT_EMBEDDED_WORKER")).toBe(false);
    expect(setting("PREHEAT_ALLOW_PRIVATE_NETWORK")).toBe(true);
    expect(setting("PREHEAT_JOB_EXPIRE_SECONDS")).toBe(60);
    expect(publicBaseUrl()).toBe("https://preheat.example");
    expect(setting("RESEND_BASE_URL")).toBe("http://127.0.0.1:9");
    expect(setting("PREHEAT_WORKER_REGIONS")).toEqual(["de", "gb"]);
    expect(setting("INNGEST_DEV")).toBe("1");
    // The default concurrency stays within the operator's ceiling, as before.
    expect(defaultSiteConcurrency()).toBe(16);
    expect(configProblems()).toEqual([]);
  });

  it("reads the lists: connect-to, trusted proxies, region proxies", () => {
    process.env.PREHEAT_CONNECT_TO = "Shop.test:80:127.0.0.1:8080, :443:[::1]:8443";
    expect(connectTarget("shop.test", 80)).toEqual({ address: "127.0.0.1", port: 8080 });
    expect(connectTarget("other.test", 443)).toEqual({ address: "::1", port: 8443 });
    expect(connectTarget("other.test", 80)).toBeUndefined();
    process.env.PREHEAT_TRUSTED_PROXIES = "127.0.0.2";
    expect(clientAddress({ [PEER_ADDRESS_HEADER]: "127.0.0.2", "x-forwarded-for": "203.0.113.9" })).toBe("203.0.113.9");
    expect(trustedProxies("10.0.0.0/8")).toHaveLength(1);
    process.env.PREHEAT_REGION_PROXY_DE = "http://proxy-de.internal:3128";
    expect(regionProxyUrl("de")).toBe("http://proxy-de.internal:3128");
    expect(regionProxyUrl("fr")).toBeUndefined();
    expect(regionProxyUrl("zz")).toBeUndefined();
    process.env.PREHEAT_DNS_SERVERS = " 1.1.1.1, 127.0.0.1:5353,[::1]:53 ,2606:4700::1111";
    expect(setting("PREHEAT_DNS_SERVERS")).toEqual(["1.1.1.1", "127.0.0.1:5353", "[::1]:53", "2606:4700::1111"]);
  });

  it("refuses values the product used to replace silently by its default, naming the variable, the value and what is expected", () => {
    expect(problemOf("PREHEAT_SITE_CONCURRENCY", "abc")).toBe('invalid configuration: PREHEAT_SITE_CONCURRENCY="abc" is invalid: not a number; expected a whole number, at least 1 (default 4).');
    expect(problemOf("PREHEAT_SITE_CONCURRENCY", "0")).toMatch(/PREHEAT_SITE_CONCURRENCY="0" is invalid: less than 1/);
    expect(problemOf("PREHEAT_SITE_CONCURRENCY", "2.5")).toMatch(/not a whole number/);
    expect(problemOf("PREHEAT_MONTHLY_CALL_QUOTA", "100_000")).toMatch(/PREHEAT_MONTHLY_CALL_QUOTA="100_000" is invalid: not a number/);
    expect(problemOf("PREHEAT_VERIFY_DELAY_SECONDS", "0")).toMatch(/not more than 0/);
    expect(problemOf("PREHEAT_SITEMAP_MAX_AGE_SECONDS", "-1")).toMatch(/less than 0/);
    expect(problemOf("PREHEAT_SITEMAP_CHILDREN_AT_ONCE", "17")).toMatch(/more than 16; expected a whole number from 1 to 16 \(default 4\)/);
    expect(problemOf("PREHEAT_JOB_CONCURRENCY", "65")).toMatch(/more than 64/);
    expect(problemOf("PREHEAT_WORKER_NICE", "20")).toMatch(/more than 19/);
    expect(problemOf("PREHEAT_WORKER_NICE", "-5")).toMatch(/less than 0/);
    expect(problemOf("PREHEAT_JOBS_POLL_SECONDS", "0.1")).toMatch(/at least 0\.5/);
    expect(problemOf("PREHEAT_JOB_EXPIRE_SECONDS", "0")).toMatch(/PREHEAT_JOB_EXPIRE_SECONDS="0"/);
    expect(problemOf("PREHEAT_EMBEDDED_WORKER", "no")).toMatch(/PREHEAT_EMBEDDED_WORKER="no" is invalid: neither "true" nor "false"/);
    expect(problemOf("PREHEAT_ALLOW_PRIVATE_NETWORK", "1")).toMatch(/PREHEAT_ALLOW_PRIVATE_NETWORK="1"/);
    expect(problemOf("PORT", "70000")).toMatch(/PORT="70000"/);
    expect(problemOf("PREHEAT_BASE_URL", "preheat.example")).toMatch(/not an http:\/\/ or https:\/\/ URL/);
    expect(problemOf("PREHEAT_LOG_LEVEL", "verbose")).toMatch(/PREHEAT_LOG_LEVEL="verbose" is invalid: not one of fatal, error, warn, info, debug, trace, silent/);
    expect(problemOf("PREHEAT_WORKER_REGIONS", "de,xx")).toMatch(/PREHEAT_WORKER_REGIONS="de,xx" is invalid: Unknown region "xx"/);
    expect(problemOf("PREHEAT_CONNECT_TO", "shop.test:80")).toMatch(/"shop.test:80" is not host:port:address:port/);
    expect(problemOf("PREHEAT_TRUSTED_PROXIES", "127.0.0.1, nginx")).toMatch(/PREHEAT_TRUSTED_PROXIES="127.0.0.1, nginx" is invalid: "nginx" is not an IP address or CIDR range/);
    expect(problemOf("PREHEAT_DNS_SERVERS", "1.1.1.1, dns.google")).toMatch(/PREHEAT_DNS_SERVERS="1.1.1.1, dns.google" is invalid: "dns.google" is not an IP address with an optional port/);
    expect(problemOf("PREHEAT_DNS_SERVERS", "127.0.0.1:70000")).toMatch(/"127.0.0.1:70000" is not an IP address/);
    expect(problemOf("INNGEST_DEV", "yes please")).toMatch(/INNGEST_DEV="yes please"/);
    expect(problemOf("EMAIL_FROM", "Preheat")).toMatch(/EMAIL_FROM="Preheat" is invalid: no e-mail address in it/);
  });

  it("accepts the log levels in any case", () => {
    process.env.PREHEAT_LOG_LEVEL = "DEBUG";
    expect(setting("PREHEAT_LOG_LEVEL")).toBe("debug");
    process.env.PREHEAT_METRICS_TOKEN = "s3cret-token";
    expect(setting("PREHEAT_METRICS_TOKEN")).toBe("s3cret-token");
  });

  it("never prints a secret's value, and masks a proxy's credentials", () => {
    const secrets: Array<[VariableName, string]> = [
      ["DATABASE_URL", "mysql://preheat:hunter2@db.internal/preheat"],
      ["PREHEAT_METRICS_TOKEN", "hunter2 hunter2"],
    ];
    for (const [name, value] of secrets) {
      const message = problemOf(name, value);
      expect(message).toContain(`${name} (value hidden)`);
      expect(message).not.toContain("hunter2");
    }
    const proxy = problemOf("PREHEAT_REGION_PROXY_DE", "socks5://user:hunter2@proxy.internal:1080");
    expect(proxy).toContain('PREHEAT_REGION_PROXY_DE="socks5://***:***@proxy.internal:1080"');
    expect(proxy).not.toContain("hunter2");
    expect(problemOf("PREHEAT_REGION_PROXY_US", "user:hunter2@ proxy")).not.toContain("hunter2");
    for (const name of ["NEXTAUTH_SECRET", "AUTH_SECRET", "RESEND_API_KEY", "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "DATABASE_URL", "PREHEAT_METRICS_TOKEN"] as const) {
      expect(VARIABLES[name].secret, name).toBe(true);
    }
  });

  it("refuses a name that is not declared", () => {
    expect(() => setting("PREHEAT_NOPE" as VariableName)).toThrow(/not a declared configuration variable/);
  });
});

describe("checkConfig", () => {
  it("passes on a clean environment and reports every bad variable at once", () => {
    expect(() => checkConfig()).not.toThrow();
    process.env.PREHEAT_SITE_CONCURRENCY = "abc";
    process.env.PREHEAT_RUN_RESULTS_MAX = "0";
    process.env.RESEND_API_KEY = "re_fine";
    process.env.DATABASE_URL = "redis://:hunter2@cache";
    let error: ConfigError | undefined;
    try {
      checkConfig();
    } catch (caught) {
      error = caught as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems.map((problem) => problem.name).sort()).toEqual(["DATABASE_URL", "PREHEAT_RUN_RESULTS_MAX", "PREHEAT_SITE_CONCURRENCY"]);
    expect(error!.message).toMatch(/^invalid configuration \(3 variables\):\n {2}- /);
    expect(error!.message).not.toContain("hunter2");
    expect(configProblems({ PREHEAT_LOG_LEVEL: "loud" }).map((problem) => problem.name)).toEqual(["PREHEAT_LOG_LEVEL"]);
  });
});

describe("product code", () => {
  /** Being moved to setting() by the observability work (PREHEAT_LOG_LEVEL, PREHEAT_METRICS_TOKEN). */

  function sources(dir: string): string[] {
    return readdirSync(path.join(root, dir)).flatMap((entry) => {
      const relative = `${dir}/${entry}`;
      if (statSync(path.join(root, relative)).isDirectory()) return ["lib/testing", "lib/bench", "lib/config", "app/api/v1/__tests__"].includes(relative) ? [] : sources(relative);
      return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [relative] : [];
    });
  }

  it("reads the environment through lib/config only", () => {
    const offenders = ["lib", "app", "inngest"].flatMap(sources).flatMap((file) =>
      readFileSync(path.join(root, file), "utf8")
        .split("\n")
        .map((line, index) => ({ line, at: `${file}:${index + 1}` }))
        // next-auth reads NEXTAUTH_URL itself: lib/accounts/next-auth.ts writes it, once, when unset.
        .filter(({ line }) => /process\.env\b/.test(line) && !/^\s*(\/\/|\*)/.test(line) && !/process\.env\.NEXTAUTH_URL = /.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});
