import { z } from "zod";

/**
 * How a variable's text becomes its value: a zod schema from the (non-empty) string to the value,
 * and what it accepts, in words, for error messages and the generated table.
 */
export type Kind<T> = { schema: z.ZodType<T, string>; accepts: string };

/** Plain decimal notation (an exponent is allowed): not "0x10", "1_000", "Infinity" nor "". */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

type Bounds = {
  /** Whole numbers only. */
  integer?: boolean;
  /** At least. */
  min?: number;
  /** More than. */
  above?: number;
  /** At most. */
  max?: number;
  /** Less than. */
  below?: number;
};

function boundsText({ integer, min, above, max, below }: Bounds): string {
  const what = integer ? "a whole number" : "a number (decimals allowed)";
  if (min !== undefined && max !== undefined) return `${what} from ${min} to ${max}`;
  const limits = [min !== undefined && `at least ${min}`, above !== undefined && `more than ${above}`, max !== undefined && `at most ${max}`, below !== undefined && `less than ${below}`].filter(
    Boolean,
  );
  return limits.length ? `${what}, ${limits.join(" and ")}` : what;
}

/** A number written in decimal, within the bounds. */
export function numeric(bounds: Bounds): Kind<number> {
  let value = z.number();
  if (bounds.integer) value = value.int("not a whole number");
  if (bounds.min !== undefined) value = value.min(bounds.min, `less than ${bounds.min}`);
  if (bounds.above !== undefined) value = value.gt(bounds.above, bounds.above === 0 ? "not more than 0" : `not more than ${bounds.above}`);
  if (bounds.max !== undefined) value = value.max(bounds.max, `more than ${bounds.max}`);
  if (bounds.below !== undefined) value = value.lt(bounds.below, `not less than ${bounds.below}`);
  return {
    schema: z.string().trim().regex(DECIMAL, "not a number").transform(Number).pipe(value),
    accepts: boundsText(bounds),
  };
}

/** Exactly `true` or `false` (any other spelling is an error, not a silent default). */
export function boolean(): Kind<boolean> {
  return {
    schema: z
      .string()
      .trim()
      .pipe(z.enum(["true", "false"], { error: 'neither "true" nor "false"' }))
      .transform((value) => value === "true"),
    accepts: "`true` or `false`",
  };
}

/** One of the words listed (case-insensitive); the value is the lower-case word. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T): Kind<T[number]> {
  return {
    schema: z
      .string()
      .trim()
      .transform((value) => value.toLowerCase())
      .pipe(z.enum(values, { error: `not one of ${values.join(", ")}` })),
    accepts: values.map((value) => `\`${value}\``).join(", "),
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
  } catch {
    return false;
  }
}

/** An absolute http:// or https:// URL; with `trimSlashes`, trailing slashes are dropped (a base to append paths to). */
export function httpUrl(options: { trimSlashes?: boolean } = {}): Kind<string> {
  const url = z.string().trim().refine(isHttpUrl, "not an http:// or https:// URL");
  return {
    schema: options.trimSlashes ? url.transform((value) => value.replace(/\/+$/, "")) : url,
    accepts: "an `http://` or `https://` URL",
  };
}

/** A PostgreSQL connection URL (the scheme is checked; the server is reached at start-up). */
export function postgresUrl(): Kind<string> {
  return {
    schema: z
      .string()
      .trim()
      .regex(/^postgres(?:ql)?:\/\//i, "not a postgres:// or postgresql:// URL"),
    accepts: "a `postgres://` or `postgresql://` URL",
  };
}

/** Any text, as written. */
export function text(accepts = "any text"): Kind<string> {
  return { schema: z.string(), accepts };
}

/** Text without spaces (a token sent in a header). */
export function token(): Kind<string> {
  return { schema: z.string().trim().regex(/^\S+$/, "contains spaces"), accepts: "text without spaces" };
}

/** An e-mail sender: an address, optionally with a display name (`Name <address@example.com>`). */
export function emailSender(): Kind<string> {
  return {
    schema: z.string().refine((value) => /[^\s<>@]+@[^\s<>@]+/.test(value), "no e-mail address in it"),
    accepts: "`address@example.com` or `Name <address@example.com>`",
  };
}

/**
 * Read by a parser that throws an Error saying what is wrong (the lists: proxies, connect-to
 * entries, region codes). A leading "NAME: " in its message is dropped: the error names the
 * variable anyway.
 */
export function parsedBy<T>(parse: (value: string) => T, accepts: string): Kind<T> {
  return {
    schema: z.string().transform((value, ctx) => {
      try {
        return parse(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message.replace(/^[A-Z][A-Z0-9_]*: /, "").replace(/\.$/, "") });
        return z.NEVER;
      }
    }),
    accepts,
  };
}

/**
 * INNGEST_DEV, as the Inngest SDK reads it: `1`/`true` (the dev server), `0`/`false` (cloud mode),
 * or the URL of a dev or self-hosted server (`http://` is assumed without a scheme).
 */
export function inngestDev(): Kind<string> {
  return {
    schema: z
      .string()
      .trim()
      .refine((value) => {
        if (["1", "true", "0", "false"].includes(value.toLowerCase())) return true;
        return isHttpUrl(value.includes("://") ? value : `http://${value}`);
      }, "neither 1, true, 0, false nor a URL"),
    accepts: "`1`, `true`, `0`, `false`, or a server's URL",
  };
}
