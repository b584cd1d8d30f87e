import { describe, expect, it } from "vitest";
import { routeOf, UNMATCHED_ROUTE } from "./requests";

const request = (path: string) => new Request(`http://localhost${path}`);

describe("routeOf", () => {
  it("names the route's dynamic segments instead of giving them, and leaves the query out", () => {
    expect(routeOf(request("/v1/hooks/phd_secret?token=phd_other"), { token: "phd_secret" })).toBe("/v1/hooks/{token}");
    expect(routeOf(request("/api/v1/sites/12/boosts/34"), { siteId: "12", boostId: "34" })).toBe("/v1/sites/{siteId}/boosts/{boostId}");
    expect(routeOf(request("/api/dashboard/keys/abc"), { keyId: "abc" })).toBe("/api/dashboard/keys/{keyId}");
  });

  it("matches a value as Next.js gives it, decoded", () => {
    expect(routeOf(request("/v1/hooks/a%20b"), { token: "a b" })).toBe("/v1/hooks/{token}");
  });

  it("gives a route without dynamic segments its path", () => {
    expect(routeOf(request("/v1/openapi.json?x=1"))).toBe("/v1/openapi.json");
  });

  it("never makes a label of a value, even one equal to one of the route's own segments", () => {
    const label = routeOf(request("/v1/sites/sites/boosts/boosts"), { siteId: "sites", boostId: "boosts" });
    expect(label.split("/").every((segment) => ["", "v1", "sites", "boosts", "{siteId}", "{boostId}"].includes(segment))).toBe(true);
  });

  it("labels a catch-all's paths, and any path its params do not explain, as unmatched", () => {
    expect(routeOf(request("/v1/anything/at/all"), { path: ["anything", "at", "all"] })).toBe(UNMATCHED_ROUTE);
    expect(routeOf(request("/v1/hooks/x"), { token: "y" })).toBe(UNMATCHED_ROUTE);
  });
});
