import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeGoogle } from "./fake-apis";
import { AnalyticsError, type AnalyticsRead, parseServiceAccountKey, readGa4 } from "./index";

const EMAIL = "preheat-reader@shop-analytics.iam.gserviceaccount.com";
const PROPERTY = "412345678";
const google = new FakeGoogle();
/** Stands for the address a key file's token_uri names: it must never be asked. */
const elsewhere = new FakeGoogle();
const saved: Record<string, string | undefined> = {};

function setEnv(vars: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(vars)) {
    if (!(name in saved)) saved[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

function rsaPair() {
  return generateKeyPairSync("rsa", { modulusLength: 2048 });
}

/** A JSON key file as Google Cloud downloads it. */
function keyFile(privateKey: KeyObject, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      type: "service_account",
      project_id: "shop-analytics",
      private_key_id: "3f1b2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
      client_email: EMAIL,
      client_id: "109876543210987654321",
      auth_uri: "https://accounts.google.com/o/oauth2/auth",
      token_uri: elsewhere.tokenUrl,
      auth_provider_x509_cert_url: "https://www.googleapis.com/oauth2/v1/certs",
      client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(EMAIL)}`,
      universe_domain: "googleapis.com",
      ...overrides,
    },
    null,
    2,
  );
}

const pair = rsaPair();
/** Made once `elsewhere` listens (its token_uri names it). */
let KEY_FILE = "";

beforeAll(async () => {
  await google.start();
  await elsewhere.start();
  KEY_FILE = keyFile(pair.privateKey);
  setEnv({ PREHEAT_GA4_BASE_URL: google.url, PREHEAT_GOOGLE_TOKEN_URL: google.tokenUrl, PREHEAT_ALLOW_PRIVATE_NETWORK: "true", PREHEAT_CONNECT_TO: undefined });
});
afterAll(async () => {
  await google.stop();
  await elsewhere.stop();
  setEnv(saved);
});
beforeEach(() => {
  for (const fake of [google, elsewhere]) {
    fake.reset();
    fake.accounts.clear();
    fake.properties.clear();
    fake.assertions.length = 0;
  }
  google.accounts.set(EMAIL, { publicKey: pair.publicKey });
  elsewhere.accounts.set(EMAIL, { publicKey: pair.publicKey });
});

function pages(n: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`/page-${i + 1}`, n - i]));
}

async function failure(read: Promise<unknown>): Promise<AnalyticsError> {
  const error = await read.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AnalyticsError);
  return error as AnalyticsError;
}

const read = (limits = {}, key = KEY_FILE): Promise<AnalyticsRead> => readGa4({ propertyId: PROPERTY, serviceAccountKey: key }, limits);
const reports = () => google.requests.filter((request) => request.path.endsWith(":runReport"));
const tokenRequests = () => google.requests.filter((request) => request.path === "/token");

describe("readGa4", () => {
  it("signs in with a JWT signed by the key, then reads every page of pagePath by screenPageViews", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: pages(25) });
    const before = Math.floor(Date.now() / 1000);
    const result = await read({ pageSize: 10 });
    expect(result.rows).toBe(25);
    expect(result.visits.get("/page-1")).toBe(25);
    expect(result.visits.get("/page-25")).toBe(1);

    // The fake verified the signature with the public key; what it verified:
    expect(google.assertions).toHaveLength(1);
    const { header, claims } = google.assertions[0]!;
    expect(header).toMatchObject({ alg: "RS256", typ: "JWT", kid: "3f1b2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d" });
    expect(claims).toMatchObject({ iss: EMAIL, aud: google.tokenUrl, scope: "https://www.googleapis.com/auth/analytics.readonly" });
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.exp! - claims.iat!).toBe(3600);
    const form = new URLSearchParams(tokenRequests()[0]!.body);
    expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");

    expect(reports()).toHaveLength(3);
    for (const [index, request] of reports().entries()) {
      expect(request.path).toBe(`/v1beta/properties/${PROPERTY}:runReport`);
      expect(request.headers.authorization).toMatch(/^Bearer ya29\./);
      expect(JSON.parse(request.body)).toEqual({
        dateRanges: [{ startDate: "30daysAgo", endDate: "today" }],
        dimensions: [{ name: "pagePath" }],
        metrics: [{ name: "screenPageViews" }],
        orderBys: [{ metric: { metricName: "screenPageViews" }, desc: true }, { dimension: { dimensionName: "pagePath" } }],
        limit: 10,
        offset: index * 10,
      });
    }
  });

  it("stops at rowCount, even on a full page", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: pages(20) });
    expect((await read({ pageSize: 10 })).rows).toBe(20);
    expect(reports()).toHaveLength(2);
  });

  it("without rowCount, reads on until a page comes back short", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: {} });
    const page = (from: number, n: number) => ({
      rows: Array.from({ length: n }, (_, i) => ({ dimensionValues: [{ value: `/p${from + i}` }], metricValues: [{ value: "1" }] })),
    });
    google.answerOn(2, { status: 200, body: page(0, 10) });
    google.answerOn(3, { status: 200, body: page(10, 3) });
    const result = await read({ pageSize: 10 });
    expect(result.rows).toBe(13);
    expect(reports().map((request) => JSON.parse(request.body).offset)).toEqual([0, 10]);
  });

  it("reads the most viewed rows up to the cap", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: pages(40) });
    const result = await read({ pageSize: 10, maxRows: 15 });
    expect(result.rows).toBe(15);
    expect(result.visits.has("/page-15")).toBe(true);
    expect(result.visits.has("/page-16")).toBe(false);
    expect(reports().map((request) => JSON.parse(request.body).limit)).toEqual([10, 5]);
  });

  it("reads an empty report (no rows, no rowCount, as proto3's JSON leaves them out)", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: {} });
    const result = await read();
    expect(result).toEqual({ visits: new Map(), rows: 0 });
    expect(JSON.parse(reports()[0]!.body)).toMatchObject({ limit: 10_000, offset: 0 });
  });

  it("leaves out (not set) and what is no path, drops fragments, and accepts properties/<id>", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: { "/": 40, "(not set)": 30, "/blog/post#comments": 5, "/blog/post": 2, "": 1, "/a\u0000b": 9 } });
    const result = await readGa4({ propertyId: ` properties/${PROPERTY} `, serviceAccountKey: KEY_FILE });
    expect(result.rows).toBe(6);
    expect(Object.fromEntries(result.visits)).toEqual({ "/": 40, "/blog/post": 7 });
  });

  it("signs in at PREHEAT_GOOGLE_TOKEN_URL, never at the key file's token_uri", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: pages(2) });
    await read();
    expect(tokenRequests()).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("says auth, and reads nothing, when Google refuses a deleted or expired key (invalid_grant)", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: pages(2) });
    google.accounts.set(EMAIL, { publicKey: pair.publicKey, revoked: true });
    const error = await failure(read());
    expect(error.reason).toBe("auth");
    expect(error.message).toContain(EMAIL);
    expect(error.message).toContain("invalid_grant: Invalid JWT Signature.");
    expect(error.transient).toBe(false);
    expect(reports()).toHaveLength(0);
  });

  it("says auth when the key is not the service account's: the signature does not verify", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: pages(2) });
    const error = await failure(read({}, keyFile(rsaPair().privateKey)));
    expect(error.reason).toBe("auth");
    expect(google.assertions).toHaveLength(0);
    expect(reports()).toHaveLength(0);
  });

  it("says auth when the service account is gone", async () => {
    google.accounts.clear();
    const error = await failure(read());
    expect(error.reason).toBe("auth");
    expect(error.message).toContain("account not found");
  });

  it("says auth when the Data API refuses the access token (401 UNAUTHENTICATED)", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: pages(25) });
    google.answerOn(3, {
      status: 401,
      body: { error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" } },
    });
    const error = await failure(read({ pageSize: 10 }));
    expect(error.reason).toBe("auth");
    expect(reports()).toHaveLength(2);
  });

  it("says not_found when the service account has no role on the property, or there is no such property (403 PERMISSION_DENIED)", async () => {
    google.properties.set(PROPERTY, { viewers: ["someone-else@other.iam.gserviceaccount.com"], pages: pages(2) });
    const error = await failure(read());
    expect(error.reason).toBe("not_found");
    expect(error.message).toContain(PROPERTY);
    expect(error.message).toContain("User does not have sufficient permissions for this property");
    const token = reports()[0]!.headers.authorization!.slice("Bearer ".length);
    expect(error.message).not.toContain(token);

    const unknown = await failure(readGa4({ propertyId: "999999", serviceAccountKey: KEY_FILE }));
    expect(unknown.reason).toBe("not_found");
  });

  it("says rate_limited on 429 RESOURCE_EXHAUSTED, with Retry-After's seconds", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: pages(2) });
    google.answerOn(2, {
      status: 429,
      headers: { "retry-after": "30" },
      body: { error: { code: 429, message: "Exhausted property tokens per hour. Consume fewer tokens, retry the request after an hour.", status: "RESOURCE_EXHAUSTED" } },
    });
    const error = await failure(read());
    expect(error.reason).toBe("rate_limited");
    expect(error.retryAfterSeconds).toBe(30);
    expect(error.message).toContain("Exhausted property tokens per hour");

    google.answerOn(1, { status: 429, body: { error: "rate_limit_exceeded", error_description: "Rate limit exceeded." } });
    expect((await failure(read())).reason).toBe("rate_limited");
  });

  it("says unavailable on a 5xx of the Data API or of the token endpoint", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: pages(2) });
    google.answerOn(2, { status: 503, body: { error: { code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE" } } });
    expect((await failure(read())).reason).toBe("unavailable");
    google.answerOn(1, { status: 500, body: "<html>Error</html>" });
    expect((await failure(read())).reason).toBe("unavailable");
    expect(reports()).toHaveLength(1);
  });

  it("says malformed on an answer not shaped as documented", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: pages(2) });
    const row = (value: unknown, views: unknown) => ({ rows: [{ dimensionValues: [{ value }], metricValues: [{ value: views }] }], rowCount: 1 });
    for (const body of [
      "<!doctype html>",
      "[]",
      { rows: {}, rowCount: 1 },
      { rows: [], rowCount: "many" },
      row("/", "12.5"),
      row("/", "-3"),
      row("/", 12),
      row(42, "1"),
      { rows: [{ dimensionValues: [] }], rowCount: 1 },
      { dimensionHeaders: [{ name: "pageTitle" }], metricHeaders: [{ name: "screenPageViews" }], rows: [], rowCount: 0 },
    ]) {
      google.answerOn(2, { status: 200, body });
      expect((await failure(read())).reason, JSON.stringify(body)).toBe("malformed");
    }
    google.answerOn(1, { status: 200, body: { token_type: "Bearer" } });
    expect((await failure(read())).reason).toBe("malformed");
  });

  it("reads nothing when a later page fails: all or nothing", async () => {
    google.properties.set(PROPERTY, { viewers: [EMAIL], pages: pages(25) });
    google.answerOn(3, { status: 500, body: { error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" } } });
    const error = await failure(read({ pageSize: 10 }));
    expect(error.reason).toBe("unavailable");
    expect(reports()).toHaveLength(2);
  });

  it("refuses a property id that is no number, and a key that is no service account's, without asking", async () => {
    expect((await failure(readGa4({ propertyId: "G-ABC123", serviceAccountKey: KEY_FILE }))).reason).toBe("not_found");
    expect((await failure(readGa4({ propertyId: "1/../x", serviceAccountKey: KEY_FILE }))).reason).toBe("not_found");
    const bad = await failure(read({}, "not json"));
    expect(bad.reason).toBe("auth");
    expect(bad.message).toMatch(/not JSON/);
    expect(google.requests).toHaveLength(0);
  });
});

describe("parseServiceAccountKey", () => {
  it("answers the service account's address", () => {
    expect(parseServiceAccountKey(KEY_FILE)).toEqual({ ok: true, clientEmail: EMAIL });
  });

  it("says what is wrong, never quoting the text", () => {
    const secretish = "-----BEGIN PRIVATE KEY-----MIIsecret";
    const cases: Array<[string, RegExp]> = [
      ["", /empty/],
      [`{"private_key": "${secretish}"`, /not JSON/],
      [`${secretish}`, /not JSON/],
      ["[1, 2]", /not a key file/],
      [keyFile(pair.privateKey, { type: "authorized_user" }), /"authorized_user", not "service_account"/],
      [keyFile(pair.privateKey, { type: undefined }), /type is missing/],
      [keyFile(pair.privateKey, { client_email: undefined }), /no client_email/],
      [keyFile(pair.privateKey, { private_key: undefined }), /no private_key/],
      [keyFile(pair.privateKey, { private_key: secretish }), /not a PEM private key/],
      [keyFile(generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey), /not an RSA key/],
    ];
    for (const [text, expected] of cases) {
      const result = parseServiceAccountKey(text);
      expect(result.ok, text.slice(0, 40)).toBe(false);
      if (result.ok) continue;
      expect(result.message).toMatch(expected);
      expect(result.message).not.toContain("MIIsecret");
    }
  });
});
