import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import {
  CLOSE_AUTH,
  CLOSE_POLICY,
  CommandRejectedError,
  fatalClose,
  fatalUpgrade,
} from "../../../src/gateway/errors.js";
import { Keepalive } from "../../../src/gateway/keepalive.js";
import { DEFAULT_TIMING, gatewaySettings, gatewayUrl, reconnectDelay } from "../../../src/gateway/options.js";
import { PendingCommands } from "../../../src/gateway/pending.js";

describe("reconnectDelay: exponential, capped, equal jitter from the injected random", () => {
  const b = { baseMs: 500, factor: 2, maxMs: 30_000, resetAfterMs: 60_000 };
  it.each([
    [1, 0, 250],
    [1, 1, 500],
    [2, 0.5, 750],
    [3, 1, 2_000],
    [7, 1, 30_000],
    [20, 0, 15_000],
  ])("attempt %i with random %f → %i ms", (attempt, r, ms) => {
    expect(reconnectDelay(attempt, b, () => r)).toBe(ms);
  });
  it("never leaves [d/2, d] even for a random outside [0, 1)", () => {
    expect(reconnectDelay(1, b, () => 5)).toBe(500);
    expect(reconnectDelay(1, b, () => -1)).toBe(250);
  });
});

describe("gatewaySettings", () => {
  it("overlays defaults and refuses nonsense with invalid_gateway_config", () => {
    const s = gatewaySettings({ timing: { pingIntervalMs: 5_000, backoff: { maxMs: 9_000 } } });
    expect(s.timing).toEqual({
      ...DEFAULT_TIMING,
      pingIntervalMs: 5_000,
      backoff: { ...DEFAULT_TIMING.backoff, maxMs: 9_000 },
    });
    expect(s.limits).toEqual({ maxIdsPerSubscription: 100, maxSubscriptionsPerConnection: 256 });
    expect(() => gatewaySettings({ limits: { maxIdsPerSubscription: 101 } })).toThrow(
      /maxIdsPerSubscription/,
    );
    expect(() => gatewaySettings({ limits: { maxSubscriptionsPerConnection: 0 } })).toThrow(
      /maxSubscriptionsPerConnection/,
    );
    expect(() => gatewaySettings({ timing: { silenceTimeoutMs: 0 } })).toThrow(/silenceTimeoutMs/);
    expect(() => gatewaySettings({ timing: { backoff: { baseMs: 10, maxMs: 5 } } })).toThrow(/backoff.maxMs/);
    // The subscriptions check: a minute by default, 0 its "off", a negative or NaN period refused.
    expect(DEFAULT_TIMING.subscriptionCheckMs).toBe(60_000);
    expect(gatewaySettings({ timing: { subscriptionCheckMs: 0 } }).timing.subscriptionCheckMs).toBe(0);
    expect(() => gatewaySettings({ timing: { subscriptionCheckMs: -1 } })).toThrow(/subscriptionCheckMs/);
    expect(() => gatewaySettings({ timing: { subscriptionCheckMs: Number.NaN } })).toThrow(
      /subscriptionCheckMs/,
    );
  });
  it("gatewayUrl appends the path once", () => {
    expect(gatewayUrl("wss://x.example/", "market")).toBe("wss://x.example/ws/market");
    expect(gatewayUrl("ws://127.0.0.1:8080", "user")).toBe("ws://127.0.0.1:8080/ws/user");
  });
});

describe("close classification", () => {
  it("every 4401 is fatal with its reason as the code; 1008 is forbidden_origin; network closes are not", () => {
    for (const reason of [
      "api_key_revoked",
      "api_key_expired",
      "api_key_suspended",
      "api_key_bad_format",
      "api_key_unknown_key",
    ]) {
      expect(fatalClose("market", CLOSE_AUTH, reason)).toMatchObject({ code: reason, closeCode: 4401 });
    }
    expect(fatalClose("user", CLOSE_AUTH, "")).toMatchObject({ code: "api_key_rejected" });
    expect(fatalClose("user", CLOSE_AUTH, "Weird Reason!")).toMatchObject({
      code: "api_key_rejected",
      details: { reason: "Weird Reason!" },
    });
    expect(fatalClose("market", CLOSE_POLICY, "forbidden origin")).toMatchObject({
      code: "forbidden_origin",
      closeCode: 1008,
    });
    for (const code of [1000, 1001, 1006, 1011, 1012, 4000])
      expect(fatalClose("market", code, "")).toBeUndefined();
  });
  it("a 1008 after the connected frame is a policy close a reconnect may clear; a 4401 stays fatal", () => {
    expect(fatalClose("market", CLOSE_POLICY, "policy violation", true)).toBeUndefined();
    expect(fatalClose("user", CLOSE_AUTH, "api_key_revoked", true)).toMatchObject({
      code: "api_key_revoked",
    });
  });
  it("HTTP refusals: 4xx fatal except 408/429; 5xx retried", () => {
    expect(fatalUpgrade("market", 401)).toMatchObject({
      code: "upgrade_rejected",
      details: { httpStatus: 401 },
    });
    expect(fatalUpgrade("market", 404)).toBeDefined();
    for (const s of [408, 429, 500, 502, 503]) expect(fatalUpgrade("market", s)).toBeUndefined();
  });
});

describe("PendingCommands on a SimClock", () => {
  it("correlates replies, rejects error replies with the server's code, times out the silent", async () => {
    const clock = new SimClock(0);
    const timedOut: string[] = [];
    const p = new PendingCommands(clock, 1_000, (cmd) => timedOut.push(cmd));
    const a = p.add(p.nextId(), "ping");
    const b = p.add(p.nextId(), "subscribe");
    const c = p.add(p.nextId(), "list_subscriptions");
    expect(p.settle("c2", { type: "error", code: "subscription_cap_exceeded", message: "full" })).toBe(true);
    expect(p.settle("c1", { type: "pong", serverTs: 5 })).toBe(true);
    expect(p.settle("c1", { type: "pong" })).toBe(false);
    await expect(a).resolves.toEqual({ type: "pong", serverTs: 5 });
    const err = await b.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandRejectedError);
    expect(err).toMatchObject({ code: "subscription_cap_exceeded", cmd: "subscribe" });
    clock.advanceBy(999);
    expect(p.size).toBe(1);
    clock.advanceBy(1);
    await expect(c).rejects.toMatchObject({ code: "command_timeout" });
    expect(timedOut).toEqual(["list_subscriptions"]);
    expect(clock.pending).toBe(0);
  });
});

describe("Keepalive on a SimClock", () => {
  it("pings every interval and declares death only after a full silence", () => {
    const clock = new SimClock(0);
    let pings = 0;
    const dead: number[] = [];
    const k = new Keepalive(
      clock,
      { pingIntervalMs: 1_000, silenceTimeoutMs: 2_500 },
      {
        ping: () => pings++,
        dead: (ms) => dead.push(ms),
      },
    );
    k.start();
    clock.advanceTo(2_000);
    k.heard(); // a pong at 2,000
    clock.advanceTo(4_499);
    expect(dead).toEqual([]);
    clock.advanceTo(4_500);
    expect(dead).toEqual([2_500]);
    expect(pings).toBe(4);
    clock.advanceTo(10_000);
    expect(pings).toBe(4); // stopped once dead
    expect(clock.pending).toBe(0);
  });
});
