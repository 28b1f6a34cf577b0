import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load.js";
import { configError } from "./support.js";

describe("metrics.host is an IP address or a host name", () => {
  it.each(["127.0.0.1", "0.0.0.0", "::1", "::", "localhost", "metrics.internal", "bot-1.example.com"])(
    "accepts %j",
    (host) => {
      expect(loadConfig({ env: { MM_METRICS_HOST: host } }).metrics.host).toBe(host);
    },
  );

  it.each(["127.0.0.1:9464", "[::1]", "http://127.0.0.1", "300.1.1.1", "1.2.3", "-bad", "two words", ""])(
    "refuses %j at load, naming metrics.host and the env variable",
    (host) => {
      const e = configError(() => loadConfig({ env: { MM_METRICS_HOST: host } }));
      expect(e.lines()).toEqual([
        `metrics.host: must be an IP address or a host name, without a port or brackets (127.0.0.1, ::1, 0.0.0.0, localhost), got ${JSON.stringify(host)} (from env MM_METRICS_HOST)`,
      ]);
    },
  );
});
