import { SignJWT } from "jose";
import { setting } from "@/lib/config";
import { POPULARITY_DAYS } from "@/lib/core/traffic";
import { AnalyticsError, type AnalyticsRead, READ_LIMITS, type ReadLimits } from "./errors";
import { type ApiAnswer, apiWords, isObject, jsonOf, postToApi, retryAfterSeconds } from "./http";
import { readServiceAccountKey, type ServiceAccountKey } from "./service-account";
import { VisitsTally } from "./tally";

const SCOPE = "https://www.googleapis.com/auth/analytics.readonly";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/**
 * A property's screen and page views per page path over the last 30 days, from the Google
 * Analytics Data API (`runReport`, `pagePath` by `screenPageViews`), signed in as the service
 * account whose key is given, page after page until every row (`rowCount`) or `maxRows` rows were
 * read. All or nothing: any failure, on any page, throws.
 */
export async function readGa4(input: { propertyId: string; serviceAccountKey: string }, limits: Partial<ReadLimits> = {}): Promise<AnalyticsRead> {
  const { pageSize, maxRows, timeoutMs } = { ...READ_LIMITS, ...limits };
  const property = input.propertyId.trim().replace(/^properties\//, "");
  if (!/^\d{1,20}$/.test(property)) throw new AnalyticsError("not_found", `${JSON.stringify(input.propertyId.slice(0, 40))} is not a GA4 property id: it is a number (Admin › Property details).`);
  const parsed = readServiceAccountKey(input.serviceAccountKey);
  if (!parsed.ok) throw new AnalyticsError("auth", `The service-account key cannot be used. ${parsed.message}`);
  const token = await accessToken(parsed.key, timeoutMs);
  const url = `${setting("PREHEAT_GA4_BASE_URL")}/v1beta/properties/${property}:runReport`;
  const tally = new VisitsTally();
  for (let offset = 0; tally.count < maxRows; ) {
    const limit = Math.min(pageSize, maxRows - tally.count);
    const request = {
      dateRanges: [{ startDate: `${POPULARITY_DAYS}daysAgo`, endDate: "today" }],
      dimensions: [{ name: "pagePath" }],
      metrics: [{ name: "screenPageViews" }],
      // The path as second key: equal counts keep one order from one page to the next.
      orderBys: [{ metric: { metricName: "screenPageViews" }, desc: true }, { dimension: { dimensionName: "pagePath" } }],
      limit,
      offset,
    };
    const answer = await postToApi("Google Analytics", url, JSON.stringify(request), {
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      timeoutMs,
    });
    if (answer.status !== 200) throw reportFailure(answer, property, [token]);
    const { rows, rowCount } = reportOf(jsonOf(answer.text));
    for (const row of rows) tally.add(row.path, row.views);
    offset += rows.length;
    if (rows.length < limit || (rowCount !== undefined && offset >= rowCount)) break;
  }
  return tally.result();
}

/** An access token for the Data API: a JWT signed with the key, exchanged at PREHEAT_GOOGLE_TOKEN_URL (never the file's token_uri). */
async function accessToken(key: ServiceAccountKey, timeoutMs: number): Promise<string> {
  const tokenUrl = setting("PREHEAT_GOOGLE_TOKEN_URL");
  const assertion = await new SignJWT({ scope: SCOPE })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", ...(key.privateKeyId ? { kid: key.privateKeyId } : {}) })
    .setIssuer(key.clientEmail)
    .setAudience(tokenUrl)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(key.privateKey);
  const answer = await postToApi("Google's sign-in", tokenUrl, new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(), {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    timeoutMs,
  });
  const body = jsonOf(answer.text);
  if (answer.status === 200) {
    const token = isObject(body) ? body.access_token : undefined;
    const type = isObject(body) ? body.token_type : undefined;
    if (typeof token !== "string" || !token || (type !== undefined && String(type).toLowerCase() !== "bearer")) {
      throw new AnalyticsError("malformed", "Google's sign-in answered without an access token.");
    }
    return token;
  }
  // RFC 6749 §5.2: `{ "error": "invalid_grant", "error_description": "Invalid JWT Signature." }`.
  const code = isObject(body) && typeof body.error === "string" && /^[\w.-]{1,60}$/.test(body.error) ? body.error : undefined;
  const description = apiWords(isObject(body) ? body.error_description : undefined, [assertion]);
  const said = code ? ` Google says: ${code}${description ? `: ${description}` : ""}` : "";
  if (answer.status === 429) {
    const wait = retryAfterSeconds(answer.headers);
    throw new AnalyticsError("rate_limited", `Google's sign-in is rate limited${wait === undefined ? "" : `; it asks to wait ${wait} s`}.${said}`, wait);
  }
  if (answer.status >= 500 || answer.status === 408) throw new AnalyticsError("unavailable", `Google's sign-in failed (HTTP ${answer.status}); the next read tries again.${said}`);
  throw new AnalyticsError(
    "auth",
    `Google refused the key of service account ${key.clientEmail}: the key was deleted, disabled or has expired, or the service account was deleted or disabled (or this server's clock is off by minutes); create a new key and give it to Preheat.${said}`,
  );
}

type Row = { path: string; views: number };

/**
 * The rows of a RunReportResponse: `{ dimensionHeaders, metricHeaders, rows: [{ dimensionValues:
 * [{ value }], metricValues: [{ value: "123" }] }], rowCount }`. In proto3's JSON an empty list or
 * a zero is left out: an empty report has neither `rows` nor `rowCount`, an empty string no `value`.
 */
function reportOf(body: unknown): { rows: Row[]; rowCount?: number } {
  if (!isObject(body)) throw malformed("its answer is not a report");
  const { rows = [], rowCount, dimensionHeaders, metricHeaders } = body;
  if (!Array.isArray(rows)) throw malformed("its rows are not a list");
  // Without rowCount (left out when 0), a short page says the end.
  if (rowCount !== undefined && (typeof rowCount !== "number" || !Number.isSafeInteger(rowCount) || rowCount < 0)) throw malformed("its rowCount is not a whole number");
  if (!headerIs(dimensionHeaders, "pagePath") || !headerIs(metricHeaders, "screenPageViews")) throw malformed("its columns are not pagePath and screenPageViews");
  return {
    rowCount,
    rows: rows.map((row, index) => {
      const dimension = isObject(row) && Array.isArray(row.dimensionValues) ? row.dimensionValues[0] : undefined;
      const metric = isObject(row) && Array.isArray(row.metricValues) ? row.metricValues[0] : undefined;
      if (!isObject(dimension) || !isObject(metric)) throw malformed(`row ${index + 1} has no dimension and metric values`);
      const path = dimension.value ?? "";
      const views = metric.value ?? "0";
      if (typeof path !== "string") throw malformed(`row ${index + 1}'s pagePath is not text`);
      if (typeof views !== "string" || !/^\d{1,15}$/.test(views)) throw malformed(`row ${index + 1}'s screenPageViews is not a whole number`);
      return { path, views: Number(views) };
    }),
  };
}

/** Headers, when the answer has them (an empty report may not), name the column asked for. */
function headerIs(headers: unknown, name: string): boolean {
  if (headers === undefined) return true;
  if (!Array.isArray(headers)) return false;
  return headers.length === 0 || (isObject(headers[0]) && headers[0].name === name);
}

function malformed(what: string): AnalyticsError {
  return new AnalyticsError("malformed", `Google Analytics answered in a shape Preheat does not know: ${what}.`);
}

/** Google's errors: `{ "error": { "code": 403, "message": "…", "status": "PERMISSION_DENIED" } }`. */
function reportFailure(answer: ApiAnswer, property: string, secrets: string[]): AnalyticsError {
  const body = jsonOf(answer.text);
  const error = isObject(body) && isObject(body.error) ? body.error : {};
  const words = apiWords(error.message, secrets);
  const said = words ? ` Google says: ${words}` : "";
  const status = typeof error.status === "string" ? error.status : "";
  if (status === "RESOURCE_EXHAUSTED" || answer.status === 429) {
    const wait = retryAfterSeconds(answer.headers);
    const when = wait === undefined ? "" : ` It asks to wait ${wait} s.`;
    return new AnalyticsError("rate_limited", `Google Analytics' quota for property ${property} is used up for now.${when}${said}`, wait);
  }
  if (status === "UNAUTHENTICATED" || answer.status === 401) {
    return new AnalyticsError("auth", `Google Analytics refused the service account's access token.${said}`);
  }
  if (status === "PERMISSION_DENIED" || status === "NOT_FOUND" || answer.status === 403 || answer.status === 404) {
    return new AnalyticsError(
      "not_found",
      `The service account cannot read GA4 property ${property}: the property does not exist, the service account was not given the Viewer role on it, or the Google Analytics Data API is not enabled in the service account's Google Cloud project.${said}`,
    );
  }
  if (answer.status >= 500 || answer.status === 408) return new AnalyticsError("unavailable", `Google Analytics failed (HTTP ${answer.status}); the next read tries again.${said}`);
  return new AnalyticsError("malformed", `Google Analytics refused Preheat's report request (HTTP ${answer.status}${status ? ` ${status}` : ""}).${said}`);
}
