import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MarketScenario } from "../../../../src/mock/scenario/types.js";
import { connect, KEYS, type Mock, startMock, T0, type TestSocket } from "./helpers.js";

let mock: Mock;
let m: MarketScenario;
let s: TestSocket;
beforeEach(async () => {
  mock = await startMock();
  const first = mock.scenario.markets[0];
  if (first === undefined) throw new Error("scenario has no market");
  m = first;
  s = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
});
afterEach(async () => {
  await mock.close();
});

describe("condition_lifecycle", () => {
  it("venue status changes: market_paused / market_unpaused around market_status", async () => {
    await s.subscribe("condition_lifecycle", [m.conditionId]);
    mock.ctx.venue.setMarketStatus(m.id, "PAUSED");
    mock.clock.advanceBy(10);
    mock.ctx.venue.setMarketStatus(m.id, "OPEN");
    mock.ctx.venue.setMarketStatus(m.id, "CLOSED");
    await s.barrier();
    const frames = s.frames.filter((f) => f.channel === "condition_lifecycle");
    expect(frames.map((f) => [f.type, f.id, f.data])).toEqual([
      ["market_paused", m.conditionId, { conditionId: m.conditionId, tsMs: T0 }],
      ["market_status", m.conditionId, { conditionId: m.conditionId, status: "PAUSED", tsMs: T0 }],
      ["market_unpaused", m.conditionId, { conditionId: m.conditionId, tsMs: T0 + 10 }],
      ["market_status", m.conditionId, { conditionId: m.conditionId, status: "OPEN", tsMs: T0 + 10 }],
      ["market_status", m.conditionId, { conditionId: m.conditionId, status: "CLOSED", tsMs: T0 + 10 }],
    ]);
  });

  it("publishMarketLifecycle pushes market_resolved and market_status with their optional fields", async () => {
    await s.subscribe("condition_lifecycle", [m.conditionId]);
    mock.gateways.publishMarketLifecycle(m.conditionId.toUpperCase().replace("0X", "0x"), {
      type: "market_resolved",
      resolution: "YES",
      payouts: { "0": "1", "1": "0" },
    });
    mock.gateways.publishMarketLifecycle(m.conditionId, {
      type: "market_status",
      status: "DISPUTED",
      reason: "challenge",
    });
    mock.gateways.publishMarketLifecycle(mock.scenario.markets[1]?.conditionId ?? "", {
      type: "market_paused",
    });
    await s.barrier();
    const frames = s.frames.filter((f) => f.channel === "condition_lifecycle");
    expect(frames.map((f) => f.data)).toEqual([
      { conditionId: m.conditionId, resolution: "YES", payouts: { "0": "1", "1": "0" }, tsMs: T0 },
      { conditionId: m.conditionId, status: "DISPUTED", reason: "challenge", tsMs: T0 },
    ]);
  });

  it("silence-lifecycle: no condition_lifecycle push at all while on (the spec: most are not emitted)", async () => {
    await s.subscribe("condition_lifecycle", [m.conditionId]);
    mock.ctx.faults.lifecycleSilenced = true;
    mock.ctx.venue.setMarketStatus(m.id, "PAUSED");
    mock.gateways.publishMarketLifecycle(m.conditionId, { type: "market_resolved", resolution: "YES" });
    mock.ctx.faults.lifecycleSilenced = false;
    mock.ctx.venue.setMarketStatus(m.id, "OPEN");
    await s.barrier();
    const frames = s.frames.filter((f) => f.channel === "condition_lifecycle");
    expect(frames.map((f) => f.type)).toEqual(["market_unpaused", "market_status"]);
  });
});

describe("system / platform_status", () => {
  it("the current status on subscribe, then every publishPlatformStatus with frozen from the fault state", async () => {
    const r = await s.subscribe("system", ["platform_status"]);
    const first = await s.take((f) => f.type === "platform_status");
    expect(first).toEqual({
      type: "platform_status",
      sid: r.accepted[0].sid,
      channel: "system",
      id: "platform_status",
      data: { frozen: false, since: new Date(T0).toISOString(), tsMs: T0 },
    });
    mock.clock.advanceBy(1_000);
    mock.ctx.faults.platformFrozen = true;
    mock.gateways.publishPlatformStatus();
    const frozen = await s.take((f) => f.type === "platform_status");
    expect(frozen.data).toEqual({
      frozen: true,
      reason: "frozen by the operator",
      since: new Date(T0 + 1_000).toISOString(),
      tsMs: T0 + 1_000,
    });
    mock.clock.advanceBy(1_000);
    mock.ctx.faults.platformFrozen = false;
    mock.gateways.publishPlatformStatus();
    expect((await s.take((f) => f.type === "platform_status")).data).toEqual({
      frozen: false,
      since: new Date(T0 + 2_000).toISOString(),
      tsMs: T0 + 2_000,
    });
  });
});
