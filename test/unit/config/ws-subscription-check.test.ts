import { describe, expect, it } from "vitest";
import { Feeds } from "../../../src/app/feeds.js";
import { loadConfig } from "../../../src/config/load.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Engine } from "../../../src/engine/engine-api.js";
import { createLogger } from "../../../src/observability/logger.js";
import { NO_MARKETS } from "../../integration/gateway/feeds-rig.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { configError } from "./support.js";

/*
 * exchange.wsSubscriptionCheckMs: the period of each WebSocket connection's subscriptions check
 * (src/gateway/periodic-audit.ts). 0 is its documented "off"; a period under the command timeout
 * is refused at load (exit 2), naming the field.
 */

const linesOf = (env: Record<string, string>): string[] => configError(() => loadConfig({ env })).lines();

describe("exchange.wsSubscriptionCheckMs", () => {
  it("defaults to a minute, keeps 0 (off) and the floor", () => {
    expect(loadConfig({ env: {} }).exchange.wsSubscriptionCheckMs).toBe(60_000);
    const at = (v: string) =>
      loadConfig({ env: { MM_EXCHANGE_WS_SUBSCRIPTION_CHECK_MS: v } }).exchange.wsSubscriptionCheckMs;
    expect(at("0")).toBe(0);
    expect(at("10000")).toBe(10_000);
  });

  it("refuses a period under 10 s, or a negative one, naming the field", () => {
    expect(linesOf({ MM_EXCHANGE_WS_SUBSCRIPTION_CHECK_MS: "500" })).toEqual([
      "exchange.wsSubscriptionCheckMs: must be 0 or ≥ 10000, got 500: 0 turns the check off; a shorter period would send list_subscriptions on every connection faster than an unanswered one times out (10 s) (from env MM_EXCHANGE_WS_SUBSCRIPTION_CHECK_MS)",
    ]);
    expect(linesOf({ MM_EXCHANGE_WS_SUBSCRIPTION_CHECK_MS: "-1" })[0]).toMatch(
      /^exchange\.wsSubscriptionCheckMs: must be 0 or ≥ 10000, got -1/,
    );
  });

  it("reaches both gateways' clients through Feeds", () => {
    const feeds = (subscriptionCheckMs?: number) =>
      new Feeds({
        wsUrl: "ws://127.0.0.1:9",
        apiKey: { reveal: () => "k" },
        userWallet: undefined,
        clock: new SimClock(0),
        logger: createLogger({ level: "info", pretty: false, destination: collectingStream() }),
        markets: NO_MARKETS,
        engine: {} as Engine,
        onFatal: () => {},
        ...(subscriptionCheckMs === undefined ? {} : { subscriptionCheckMs }),
      });
    const off = feeds(0);
    expect(off.market.client.settings.timing.subscriptionCheckMs).toBe(0);
    expect(off.user.settings.timing.subscriptionCheckMs).toBe(0);
    expect(feeds().market.client.settings.timing.subscriptionCheckMs).toBe(60_000);
  });
});
