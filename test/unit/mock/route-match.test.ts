import { describe, expect, it } from "vitest";
import { findRoute, matchPattern, type Route } from "../../../src/mock/http/route.js";

const route = (method: Route["method"], pattern: string): Route => ({
  method,
  pattern,
  auth: "public",
  scopes: [],
  handler: () => ({ status: 200, body: pattern }),
});

describe("mock routing", () => {
  const routes = [
    route("GET", "/api/orders/{id}"),
    route("GET", "/api/orders/open"),
    route("POST", "/api/orders/place"),
  ];

  it("literal segments beat parameters, whatever the table order", () => {
    const found = findRoute(routes, "GET", "/api/orders/open");
    expect(typeof found === "object" && found.route.pattern).toBe("/api/orders/open");
    const byId = findRoute(routes, "GET", "/api/orders/abc%2F1");
    expect(typeof byId === "object" && byId.params).toEqual({ id: "abc/1" });
  });

  it("tells a wrong method from an unknown path", () => {
    expect(findRoute(routes, "GET", "/api/orders/place")).not.toBe("method_not_allowed"); // {id} = "place"
    expect(findRoute(routes, "DELETE", "/api/orders/open")).toBe("method_not_allowed");
    expect(findRoute(routes, "GET", "/api/nothing")).toBe("not_found");
    expect(matchPattern("/api/orders/{id}", "/api/orders/")).toBeUndefined();
  });
});
