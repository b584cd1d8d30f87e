import pino, { type Logger } from "pino";
import { setting } from "@/lib/config";

type Global = typeof globalThis & { __preheatLogger?: Logger };

/**
 * The one structured logger: JSON lines on standard output, one per request and per job, each
 * request's lines naming its request id. Secrets are never logged: headers are not logged at all,
 * and fields that could carry one are censored should a caller pass them.
 */
export function logger(): Logger {
  const g = globalThis as Global;
  if (!g.__preheatLogger) {
    // Read when the first line is logged, after the start checked the configuration.
    g.__preheatLogger = pino({
      level: setting("PREHEAT_LOG_LEVEL"),
      base: { service: "preheat", pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: ["authorization", "key", "api_key", "password", "secret", "token", "*.authorization", "*.password", "*.secret", "*.token"], censor: "[redacted]" },
    });
  }
  return g.__preheatLogger;
}

/** What a request's log line says about it. */
export type RequestLine = {
  request_id: string | undefined;
  method: string;
  /** The route as declared (`/v1/sites/{siteId}/warm`), never the concrete path: ids are not labels. */
  route: string;
  operation?: string;
  status: number;
  duration_ms: number;
  account_id?: number;
  /** The first characters of the API key (`phk_ab12…`), as the dashboard lists it: never the key. */
  key_prefix?: string;
};

export function logRequest(line: RequestLine): void {
  const level = line.status >= 500 ? "error" : "info";
  logger()[level]({ ...line, duration_ms: Math.round(line.duration_ms * 10) / 10 }, "request");
}
