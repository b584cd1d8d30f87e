import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "@/lib/auth/scopes";
import { REGIONS } from "@/lib/core/regions";
import { api, baseUrl, cli, createValidatedSite, serveSite, uniqueEmail } from "./support/api";
import { sessionOf, signUpAndConfirm, uniqueClient } from "./support/sessions";

// The operator console (issue 30): only users granted it by the CLI reach /operator and /api/operator,
// everyone else finds nothing there; the operator lists organizations, changes plans, suspends and resumes.

const dashboard = { "x-preheat-dashboard": "1" };
const PASSWORD = "a long enough password";
const as = (cookie: string) => ({ headers: { ...dashboard, cookie } });

/** A new owner with a session and an API key of the organization. */
async function newOwner(label: string) {
  const email = uniqueEmail(label);
  await signUpAndConfirm(email, PASSWORD, uniqueClient());
  const cookie = await sessionOf(email, PASSWORD);
  const created = await api("POST", "/api/dashboard/keys", { ...as(cookie), body: { name: "setup", scopes: [...SCOPES] } });
  expect(created.status).toBe(201);
  const organization = await api("GET", "/api/dashboard/organization", as(cookie));
  return { email, cookie, key: created.body.key as string, organizationId: organization.body.id as number };
}

let operator: Awaited<ReturnType<typeof newOwner>>;
let customer: Awaited<ReturnType<typeof newOwner>>;

beforeAll(async () => {
  [operator, customer] = await Promise.all([newOwner("operator"), newOwner("customer")]);
  expect(await cli("users", "grant-operator", "--email", operator.email)).toMatch(/may now open the operator console/);
});

/** Every operator route, with a body it would accept from an operator. */
const routes = (organizationId: number): [string, string, unknown?][] => [
  ["GET", "/api/operator/organizations"],
  ["GET", `/api/operator/organizations/${organizationId}`],
  ["PUT", `/api/operator/organizations/${organizationId}/plan`, { plan_id: null }],
  ["POST", `/api/operator/organizations/${organizationId}/suspend`, { reason: "test" }],
  ["POST", `/api/operator/organizations/${organizationId}/resume`],
  ["GET", "/api/operator/plans"],
  ["POST", "/api/operator/plans", { name: "Sneaky" }],
  ["PATCH", "/api/operator/plans/1", { name: "Sneaky" }],
  ["DELETE", "/api/operator/plans/1"],
  ["GET", "/api/operator/workers"],
  ["GET", "/api/operator/queues"],
  ["POST", `/api/operator/queues/jobs/${randomUUID()}/retry`],
  ["GET", `/api/operator/keys?email=${encodeURIComponent("someone@example.com")}`],
  ["POST", "/api/operator/keys", { email: "someone@example.com", scopes: ["sites:read"] }],
  ["DELETE", "/api/operator/keys/1"],
  ["GET", `/api/operator/emails?to=${encodeURIComponent("someone@example.com")}`],
  // A method the route does not serve, and a path that does not exist: the same 404.
  ["DELETE", "/api/operator/organizations"],
  ["GET", "/api/operator/nothing-here"],
];

describe("who reaches the console", () => {
  it("a customer, a signed-out visitor and an API key get 404 for /operator and every operator route, and nothing changes", async () => {
    const callers: [string, { headers?: Record<string, string>; key?: string }][] = [
      ["a signed-in customer", as(customer.cookie)],
      ["a signed-out visitor", { headers: dashboard }],
      ["an API key", { key: customer.key }],
      ["the operator's own organization's API key", { key: operator.key }],
      ["the operator's session without the dashboard header", { headers: { cookie: operator.cookie } }],
    ];
    for (const [who, options] of callers) {
      for (const [method, path, body] of routes(customer.organizationId)) {
        const response = await api(method, path, { ...options, body });
        expect(response.status, `${who}: ${method} ${path}`).toBe(404);
        expect(response.body, `${who}: ${method} ${path}`).toMatchObject({ code: "not_found" });
      }
    }
    for (const [who, cookie] of [
      ["a signed-in customer", customer.cookie],
      ["a signed-out visitor", ""],
    ]) {
      for (const page of ["/operator", "/operator/plans", `/operator/organizations/${customer.organizationId}`, "/operator/queues"]) {
        const response = await fetch(`${baseUrl}${page}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
        expect(response.status, `${who}: ${page}`).toBe(404);
        expect(await response.text(), `${who}: ${page}`).not.toMatch(/Operator console|Workers &amp; regions/);
      }
    }
    const customerPage = await (await fetch(`${baseUrl}/sites`, { headers: { cookie: customer.cookie } })).text();
    expect(customerPage).not.toContain('href="/operator"');
    expect((await api("GET", "/v1/sites", { key: customer.key })).status).toBe(200);
  });

  it("the operator opens the console, and the header links to it", async () => {
    const page = await fetch(`${baseUrl}/operator`, { headers: { cookie: operator.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Operator console");
    expect(html).toContain('href="/operator/queues"');
    for (const path of ["/operator/plans", "/operator/workers", "/operator/queues", "/operator/keys", "/operator/emails", `/operator/organizations/${customer.organizationId}`]) {
      expect((await fetch(`${baseUrl}${path}`, { headers: { cookie: operator.cookie } })).status, path).toBe(200);
    }
    expect((await api("DELETE", "/api/operator/organizations", as(operator.cookie))).status).toBe(405);
  });
});

describe("organizations", () => {
  it("lists an organization with its plan, this month's calls, sites and members", async () => {
    const site = await createValidatedSite(customer.key);
    await serveSite(site.domain, { routes: { [`/${site.validation_token}.html`]: { body: site.validation_token } }, fallback: { body: "page" } });
    const warmed = await api("POST", `/v1/sites/${site.id}/warm`, { key: customer.key, body: { urls: [`https://${site.domain}/a`, `https://${site.domain}/b`], region: ["fr"] } });
    expect(warmed.status).toBe(202);

    const listed = await api("GET", `/api/operator/organizations?q=${encodeURIComponent(customer.email)}`, as(operator.cookie));
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: 1, limit: 20, offset: 0 });
    expect(listed.body.data[0]).toMatchObject({
      id: customer.organizationId,
      plan: { id: null, name: "default" },
      calls_this_month: 2,
      monthly_calls: expect.any(Number),
      sites: 1,
      members: 1,
      last_activity_at: expect.any(String),
      suspended: null,
    });
    const all = await api("GET", "/api/operator/organizations?limit=100", as(operator.cookie));
    expect(all.body.total).toBeGreaterThanOrEqual(2);
    const detail = await api("GET", `/api/operator/organizations/${customer.organizationId}`, as(operator.cookie));
    expect(detail.body.member_list).toEqual([{ email: customer.email, role: "owner" }]);
    expect((await api("GET", "/api/operator/organizations/999999999", as(operator.cookie))).body).toMatchObject({ code: "not_found" });
    expect(await api("GET", "/api/operator/organizations?limit=1000", as(operator.cookie))).toMatchObject({ status: 422, body: { code: "validation_failed" } });
  });

  it("changes the organization's plan; a plan in use is not deleted", async () => {
    const name = `Starter ${randomUUID().slice(0, 8)}`;
    const plan = await api("POST", "/api/operator/plans", { ...as(operator.cookie), body: { name, monthly_calls: 1000, sites: 5, regions: ["fr", "de"] } });
    expect(plan.status).toBe(201);
    expect(plan.body).toMatchObject({ name, limits: { monthly_calls: 1000, sites: 5, regions: ["fr", "de"] }, organizations: 0 });
    expect(await api("POST", "/api/operator/plans", { ...as(operator.cookie), body: { name, monthly_calls: 5 } })).toMatchObject({ status: 409 });
    expect(await api("POST", "/api/operator/plans", { ...as(operator.cookie), body: { name: "", monthly_calls: -1 } })).toMatchObject({ status: 422, body: { code: "validation_failed" } });

    const moved = await api("PUT", `/api/operator/organizations/${customer.organizationId}/plan`, { ...as(operator.cookie), body: { plan_id: plan.body.id } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ plan: { id: plan.body.id, name }, monthly_calls: 1000 });
    expect((await api("GET", "/v1/me", { key: customer.key })).status).toBe(200);
    const plans = await api("GET", "/api/operator/plans", as(operator.cookie));
    expect(plans.body.data.find((p: { id: number }) => p.id === plan.body.id)).toMatchObject({ organizations: 1 });
    expect(await api("DELETE", `/api/operator/plans/${plan.body.id}`, as(operator.cookie))).toMatchObject({ status: 409 });
    const renamed = await api("PATCH", `/api/operator/plans/${plan.body.id}`, { ...as(operator.cookie), body: { monthly_calls: 2000 } });
    expect(renamed.body).toMatchObject({ name, limits: { monthly_calls: 2000 } });
    expect(await api("PUT", `/api/operator/organizations/${customer.organizationId}/plan`, { ...as(operator.cookie), body: { plan_id: "starter" } })).toMatchObject({
      status: 422,
      body: { code: "validation_failed" },
    });

    const back = await api("PUT", `/api/operator/organizations/${customer.organizationId}/plan`, { ...as(operator.cookie), body: { plan_id: null } });
    expect(back.body.plan).toEqual({ id: null, name: "default" });
    expect((await api("DELETE", `/api/operator/plans/${plan.body.id}`, as(operator.cookie))).status).toBe(204);
    expect(await api("PATCH", `/api/operator/plans/${plan.body.id}`, { ...as(operator.cookie), body: { monthly_calls: 1 } })).toMatchObject({ status: 404 });
  });

  it("suspends an organization: its key gets 403 account_suspended, its member's dashboard says why; resuming restores both", async () => {
    const reason = "Unpaid invoice 2026-11: pay it from the billing portal.";
    expect(await api("POST", `/api/operator/organizations/${customer.organizationId}/suspend`, { ...as(operator.cookie), body: { reason: " " } })).toMatchObject({
      status: 422,
      body: { code: "validation_failed" },
    });
    const suspended = await api("POST", `/api/operator/organizations/${customer.organizationId}/suspend`, { ...as(operator.cookie), body: { reason } });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ id: customer.organizationId, suspended: { reason, since: expect.any(String) }, runs_stopped: expect.any(Number) });

    const byKey = await api("GET", "/v1/sites", { key: customer.key });
    expect(byKey).toMatchObject({ status: 403, body: { code: "account_suspended", reason } });
    expect(byKey.body.error).toContain(reason);
    const byMember = await api("GET", "/api/dashboard/keys", as(customer.cookie));
    expect(byMember).toMatchObject({ status: 403, body: { code: "account_suspended", reason } });
    expect((await api("GET", "/v1/sites", as(customer.cookie))).body).toMatchObject({ code: "account_suspended" });
    // The member's pages say why, from the first render.
    const page = await (await fetch(`${baseUrl}/sites`, { headers: { cookie: customer.cookie } })).text();
    expect(page).toContain("This organization is suspended by the operator of this service: Unpaid invoice 2026-11: pay it from the billing portal.");
    const listed = await api("GET", `/api/operator/organizations?q=${encodeURIComponent(customer.email)}`, as(operator.cookie));
    expect(listed.body.data[0].suspended).toMatchObject({ reason });

    const resumed = await api("POST", `/api/operator/organizations/${customer.organizationId}/resume`, as(operator.cookie));
    expect(resumed).toMatchObject({ status: 200, body: { suspended: null } });
    expect((await api("GET", "/v1/sites", { key: customer.key })).status).toBe(200);
    expect((await api("GET", "/api/dashboard/keys", as(customer.cookie))).status).toBe(200);
    expect(await (await fetch(`${baseUrl}/sites`, { headers: { cookie: customer.cookie } })).text()).not.toContain("suspended by the operator");

    // The organization's audit log names the operator by e-mail address.
    const log = await api("GET", "/v1/audit-log?action=organization.", { key: customer.key });
    expect(log.body.data.map((e: { action: string; actor: { type: string; label: string } }) => [e.action, e.actor.type, e.actor.label])).toEqual([
      ["organization.resumed", "operator", operator.email],
      ["organization.suspended", "operator", operator.email],
      ["organization.plan_changed", "operator", operator.email],
      ["organization.plan_changed", "operator", operator.email],
    ]);
  });

  it("a suspension that blocks new organizations refuses its owner another one, from the console or the CLI, until it is resumed", async () => {
    const owner = await newOwner("blocked");
    const create = () => api("POST", "/api/dashboard/organizations", { ...as(owner.cookie), body: { name: "Fresh start" } });
    const suspended = await api("POST", `/api/operator/organizations/${owner.organizationId}/suspend`, {
      ...as(operator.cookie),
      body: { reason: "Chargeback", block_new_organizations: true },
    });
    expect(suspended.body.suspended).toMatchObject({ reason: "Chargeback", block_new_organizations: true });
    const refused = await create();
    expect(refused).toMatchObject({ status: 403, body: { code: "account_suspended", reason: "Chargeback" } });
    expect(refused.body.error).toContain("No new organization can be created until it is resumed");
    expect((await api("GET", "/api/dashboard/organizations", as(owner.cookie))).body.data).toHaveLength(1);
    expect((await api("POST", `/api/operator/organizations/${owner.organizationId}/resume`, as(operator.cookie))).body.suspended).toBeNull();
    const created = await create();
    expect(created.status).toBe(201);

    // The CLI's flag does the same.
    expect(await cli("organizations", "suspend", String(owner.organizationId), "--reason", "Chargeback", "--block-new-organizations")).toMatch(/may not create another organization/);
    expect((await create()).body.code).toBe("account_suspended");
    expect(await cli("organizations", "resume", String(owner.organizationId))).toMatch(/Resumed/);
    expect((await create()).status).toBe(201);
  });

  it("the operator's own organization being suspended does not close the console", async () => {
    const own = await api("POST", `/api/operator/organizations/${operator.organizationId}/suspend`, { ...as(operator.cookie), body: { reason: "Testing the console." } });
    expect(own.status).toBe(200);
    expect((await api("GET", "/api/dashboard/keys", as(operator.cookie))).body.code).toBe("account_suspended");
    expect((await api("GET", "/api/operator/organizations", as(operator.cookie))).status).toBe(200);
    expect((await fetch(`${baseUrl}/operator`, { headers: { cookie: operator.cookie } })).status).toBe(200);
    expect((await api("POST", `/api/operator/organizations/${operator.organizationId}/resume`, as(operator.cookie))).status).toBe(200);
  });
});

describe("workers, queues, keys and e-mails", () => {
  it("lists the live workers and each region's egress", async () => {
    const view = await api("GET", "/api/operator/workers", as(operator.cookie));
    expect(view.status).toBe(200);
    expect(view.body.workers.length).toBeGreaterThanOrEqual(1);
    expect(view.body.workers[0]).toMatchObject({
      id: expect.any(String),
      regions: expect.any(Array),
      started_at: expect.any(String),
      last_report_at: expect.any(String),
      live: true,
      calls_in_flight: expect.any(Number),
    });
    expect(view.body.regions.map((r: { code: string }) => r.code)).toEqual(REGIONS.map((r) => r.code));
    expect(view.body.regions[0]).toMatchObject({ code: expect.any(String), name: expect.any(String), egress: expect.stringMatching(/^(worker|proxy|local)$/), shares_egress_with: expect.any(Array) });
  });

  it("shows each queue's figures and the failed jobs; retrying a job that did not fail is a 404", async () => {
    const view = await api("GET", "/api/operator/queues", as(operator.cookie));
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ driver: "pg-boss", queues: expect.any(Array), failed: expect.any(Array) });
    expect(view.body.queues.length).toBeGreaterThan(0);
    expect(view.body.queues[0]).toMatchObject({ name: expect.any(String), waiting: expect.any(Number), active: expect.any(Number), failed: expect.any(Number) });
    expect(view.body.queues[0]).toHaveProperty("oldest_waiting_seconds");
    expect(await api("POST", `/api/operator/queues/jobs/${randomUUID()}/retry`, as(operator.cookie))).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(await api("POST", "/api/operator/queues/jobs/not-a-job/retry", as(operator.cookie))).toMatchObject({ status: 422, body: { code: "validation_failed" } });
  });

  it("creates a key for a user, shows it once, lists and revokes it", async () => {
    const email = uniqueEmail("integrator");
    const created = await api("POST", "/api/operator/keys", { ...as(operator.cookie), body: { email, scopes: ["sites:read"], name: "From the console" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ key: expect.stringMatching(/^phk_/), organization_id: expect.any(Number), api_key: { name: "From the console", scopes: ["sites:read"], state: "active" } });
    expect((await api("GET", "/v1/sites", { key: created.body.key })).status).toBe(200);
    const listed = await api("GET", `/api/operator/keys?email=${encodeURIComponent(email)}`, as(operator.cookie));
    expect(listed.body).toMatchObject({ email, organization_id: created.body.organization_id });
    expect(listed.body.data.map((k: { id: number }) => k.id)).toEqual([created.body.api_key.id]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    const revoked = await api("DELETE", `/api/operator/keys/${created.body.api_key.id}`, as(operator.cookie));
    expect(revoked.body.state).toBe("revoked");
    expect((await api("GET", "/v1/sites", { key: created.body.key })).status).toBe(401);
    expect(await api("GET", "/api/operator/keys?email=not-an-address", as(operator.cookie))).toMatchObject({ status: 422, body: { code: "validation_failed" } });
    expect(await api("GET", `/api/operator/keys?email=${encodeURIComponent(uniqueEmail("nobody"))}`, as(operator.cookie))).toMatchObject({ status: 404 });
    expect(await api("POST", "/api/operator/keys", { ...as(operator.cookie), body: { email, scopes: [] } })).toMatchObject({ status: 422 });
  });

  it("reads the latest e-mails to an address", async () => {
    const emails = await api("GET", `/api/operator/emails?to=${encodeURIComponent(customer.email)}&last=5`, as(operator.cookie));
    expect(emails.status).toBe(200);
    expect(emails.body.data.length).toBeGreaterThanOrEqual(1);
    expect(emails.body.data[0]).toMatchObject({ to: customer.email, subject: expect.any(String), text: expect.any(String), created_at: expect.any(String) });
    expect(await api("GET", `/api/operator/emails?to=${encodeURIComponent(customer.email)}&last=500`, as(operator.cookie))).toMatchObject({ status: 422 });
  });
});
