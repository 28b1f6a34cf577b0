import { request } from "node:http";
import { Counter, Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ObservabilityServer,
  startObservabilityServer,
} from "../../../src/observability/http-server.js";

const servers: ObservabilityServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(readiness: () => { ready: boolean; reason?: string }, registry = new Registry()) {
  const s = await startObservabilityServer({ port: 0, registry, readiness });
  servers.push(s);
  return s;
}

/** A raw request (any method), so the test sees exactly what a scraper or a probe sees. */
function call(url: string, method = "GET"): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        body += c;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("startObservabilityServer over real HTTP on 127.0.0.1", () => {
  it("binds loopback by default and serves the registry in the Prometheus text format", async () => {
    const registry = new Registry();
    const c = new Counter({ name: "mm_test_events_total", help: "test events", registers: [registry] });
    c.inc(3);
    const s = await start(() => ({ ready: true }), registry);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await call(`${s.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.type).toBe(registry.contentType);
    expect(res.body).toContain("# TYPE mm_test_events_total counter\nmm_test_events_total 3\n");
    c.inc();
    expect((await call(`${s.url}/metrics?x=1`)).body).toContain("mm_test_events_total 4\n");
  });

  it("answers /health 200 always and /ready 503 with the reason until ready, then 200", async () => {
    let state: { ready: boolean; reason?: string } = { ready: false, reason: "books not synced: 1 of 4" };
    const s = await start(() => state);
    const health = await call(`${s.url}/health`);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: "ok" });
    const before = await call(`${s.url}/ready`);
    expect(before.status).toBe(503);
    expect(before.type).toBe("application/json");
    expect(JSON.parse(before.body)).toEqual({ ready: false, reason: "books not synced: 1 of 4" });
    state = { ready: true };
    const after = await call(`${s.url}/ready`);
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body)).toEqual({ ready: true });
  });

  it("answers 404 elsewhere, 405 to writes, 500 when a check throws, and HEAD without a body", async () => {
    const s = await start(() => {
      throw new Error("readiness exploded");
    });
    expect((await call(`${s.url}/`)).status).toBe(404);
    expect((await call(`${s.url}/metricsx`)).status).toBe(404);
    expect((await call(`${s.url}/metrics`, "POST")).status).toBe(405);
    const boom = await call(`${s.url}/ready`);
    expect(boom.status).toBe(500);
    expect(boom.body).toContain("readiness exploded");
    const head = await call(`${s.url}/health`, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect((await call(`${s.url}/health`)).status).toBe(200); // still serving after the failure
  });

  it("closes, even with a keep-alive connection open, and frees the port", async () => {
    const s = await start(() => ({ ready: true }));
    await fetch(`${s.url}/health`); // undici keeps the socket alive
    await s.close();
    await expect(call(`${s.url}/health`)).rejects.toThrow(/ECONNREFUSED/);
    await s.close(); // idempotent
  });
});
