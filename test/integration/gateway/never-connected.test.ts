import { afterEach, describe, expect, it } from "vitest";
import { LiveClock } from "../../../src/core/live-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import { createLogger } from "../../../src/observability/logger.js";
import { type CollectingStream, collectingStream } from "../../support/collecting-stream.js";
import { closedPort } from "../../support/http-test-server.js";

let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function until(probe: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const reconnects = (sink: CollectingStream) =>
  sink.records().filter((r) => r.msg === "gateway: connection lost; reconnecting");

/**
 * A wrong exchange.wsUrl (or the exchange's WebSockets down at start) used to show only
 * "gateway: connection lost; reconnecting" with close code 1006: no URL, no setting, no cause. The
 * first failed attempt of a link that has never connected now names them, once.
 */
describe("gateway: a link that has never connected", () => {
  it("names exchange.wsUrl, the URL and the cause once, not on every retry", async () => {
    const sink = collectingStream();
    const logger = createLogger({ level: "info", pretty: false, destination: sink });
    const port = await closedPort();
    const c = new GatewayClient({
      url: `ws://127.0.0.1:${port}`,
      gateway: "market",
      apiKey: "mm_test_k1_secretsecretsecret",
      clock: new LiveClock(),
      logger,
      timing: { backoff: { baseMs: 10, maxMs: 20 } },
    });
    client = c;
    c.start().catch(() => undefined);
    await until(() => reconnects(sink).length >= 3, "three reconnect warnings");
    const named = sink.records().filter((r) => r.setting === "exchange.wsUrl");
    expect(named).toHaveLength(1);
    expect(named[0]).toMatchObject({
      level: 40,
      gateway: "market",
      url: `ws://127.0.0.1:${port}/ws/market`,
    });
    expect(String(named[0]?.error)).toContain("ECONNREFUSED");
    expect(String(named[0]?.msg)).toContain(`ws://127.0.0.1:${port}/ws/market`);
    expect(String(named[0]?.msg)).toContain("exchange.wsUrl");
    expect(sink.text()).not.toContain("secretsecretsecret");
  });
});
