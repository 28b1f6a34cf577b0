import { describe, expect, it } from "vitest";
import { lifecycleStatus } from "../../../src/gateway/lifecycle-status.js";
import { type ChannelEvent, EVENT_CHANNEL, parseEventFrame } from "../../../src/gateway/schema/events.js";
import { FieldReader } from "../../../src/gateway/schema/fields.js";

/*
 * Optional and passthrough fields the bot does not act on never cost an event its required
 * fields: kept when well-formed, dropped (undefined) otherwise. The fields the bot acts on stay
 * strict. Spec, Events: market_paused/unpaused "txHash (optional), blockNumber (optional)";
 * market_resolved "payouts (optional)"; market_status "reason (optional)"; platform_status "a
 * passthrough of the status producer; example fields: frozen (boolean), reason, since, etaUnfreeze".
 */

const COND = `0x${"0a".repeat(32)}`;
const TX = `0x${"cd".repeat(32)}`;

function event(type: keyof typeof EVENT_CHANNEL, data: Record<string, unknown>, id?: string): ChannelEvent {
  const gateway = type.startsWith("order_") ? "user" : "market";
  const frame = { type, sid: 1, channel: EVENT_CHANNEL[type], ...(id === undefined ? {} : { id }), data };
  const r = parseEventFrame(frame, gateway);
  if ("rejected" in r) throw new Error(`${type} refused: ${JSON.stringify(r)}`);
  return r.event;
}

function refusal(type: keyof typeof EVENT_CHANNEL, data: Record<string, unknown>, id?: string) {
  const frame = { type, sid: 1, channel: EVENT_CHANNEL[type], ...(id === undefined ? {} : { id }), data };
  return parseEventFrame(frame, "market");
}

describe("platform_status: `frozen` strict, the passthrough fields lenient", () => {
  it.each([
    ["an empty reason", { frozen: false, reason: "" }, false],
    ["a numeric since (ms)", { frozen: true, since: 1_700_000_000_000 }, true],
    ["a reason that is an object", { frozen: true, reason: { code: "halt" } }, true],
    ["tsMs as a string", { frozen: false, tsMs: "1700000000000" }, false],
    ["since as an empty string", { frozen: true, since: "" }, true],
  ])("%s still delivers frozen", (_what, data, frozen) => {
    const e = event("platform_status", data, "platform_status");
    expect(e).toMatchObject({ type: "platform_status", frozen, data });
  });

  it("drops a malformed informational field and keeps the well-formed ones as sent", () => {
    expect(
      event(
        "platform_status",
        { frozen: true, reason: "", since: 1_700_000_000_000, tsMs: 5 },
        "platform_status",
      ),
    ).toMatchObject({ frozen: true, reason: undefined, since: 1_700_000_000_000, tsMs: 5 });
    expect(
      event("platform_status", { frozen: false, reason: "done", since: "2026-06-01T00:00:00Z", tsMs: "x" }),
    ).toMatchObject({ frozen: false, reason: "done", since: "2026-06-01T00:00:00Z", tsMs: undefined });
  });

  it("a frozen it cannot read is still refused (the bot halts or resumes on it; never guessed)", () => {
    for (const frozen of ["true", 1, {}]) {
      expect(refusal("platform_status", { frozen, reason: "x" }, "platform_status")).toMatchObject({
        rejected: "bad_field",
        field: "frozen",
      });
    }
  });
});

describe("condition_lifecycle: the condition and status strict, the chain references lenient", () => {
  it("market_resolved with payouts as JSON integers: delivered, numerators as decimal strings", () => {
    const e = event(
      "market_resolved",
      { conditionId: COND, resolution: "YES", payouts: [1, 0], tsMs: 1 },
      COND,
    );
    expect(e).toMatchObject({ type: "market_resolved", resolution: "YES", payouts: { "0": "1", "1": "0" } });
    expect(lifecycleStatus(e)).toEqual({
      conditionId: COND,
      status: "RESOLVED",
      payouts: { "0": "1", "1": "0" },
    });
    expect(
      event("market_resolved", {
        conditionId: COND,
        resolution: "NO",
        payouts: { "0": 0, "1": "1" },
        tsMs: 1,
      }),
    ).toMatchObject({ payouts: { "0": "0", "1": "1" } });
  });

  it.each([
    ["fractional numbers", [0.5, 0.5]],
    ["negative numbers", [-1, 2]],
    ["an empty list", []],
    ["a string", "1,0"],
    ["a bad key", { yes: "1" }],
  ])("market_resolved with payouts as %s: delivered without payouts", (_what, payouts) => {
    const e = event("market_resolved", {
      conditionId: COND,
      resolution: "YES",
      payouts,
      txHash: TX,
      tsMs: 1,
    });
    expect(e).toMatchObject({ type: "market_resolved", resolution: "YES", payouts: undefined, txHash: TX });
  });

  it.each([
    ["empty", ""],
    ["short", "0xabc"],
    ["uppercase", TX.toUpperCase().replace("0X", "0x")],
    ["a number", 7],
  ])("market_paused / unpaused with a %s txHash: delivered without it", (_what, txHash) => {
    for (const type of ["market_paused", "market_unpaused"] as const) {
      const e = event(type, { conditionId: COND, txHash, blockNumber: 12, tsMs: 1 }, COND);
      expect(e).toMatchObject({ type, conditionId: COND, txHash: undefined, blockNumber: 12 });
    }
  });

  it("a bad blockNumber is dropped too; a valid txHash is kept", () => {
    const e = event("market_unpaused", { conditionId: COND, txHash: TX, blockNumber: -1, tsMs: 1 });
    expect(e).toMatchObject({ txHash: TX, blockNumber: undefined });
  });

  it("market_status with an empty reason keeps its status", () => {
    const e = event("market_status", { conditionId: COND, status: "CLOSED", reason: "", tsMs: 1 }, COND);
    expect(e).toMatchObject({ status: "CLOSED", reason: undefined });
    expect(lifecycleStatus(e)).toEqual({ conditionId: COND, status: "CLOSED" });
  });

  it("the required fields are still refused when malformed", () => {
    expect(refusal("market_paused", { conditionId: COND.toUpperCase(), tsMs: 1 })).toMatchObject({
      rejected: "bad_field",
      field: "conditionId",
    });
    expect(refusal("market_status", { conditionId: COND, status: "", tsMs: 1 })).toMatchObject({
      rejected: "bad_field",
      field: "status",
    });
    expect(refusal("market_resolved", { conditionId: COND, payouts: [1, 0], tsMs: 1 })).toMatchObject({
      rejected: "bad_field",
      field: "resolution",
    });
    expect(refusal("market_unpaused", { conditionId: COND, txHash: "", tsMs: "1" })).toMatchObject({
      rejected: "bad_field",
      field: "tsMs",
    });
  });
});

describe("user_orders: every field informational", () => {
  it("order_cancelled with odd fields is delivered with what is readable", () => {
    const data = { orderId: "o-1", clientOrderId: 7, status: "", reason: null, tsMs: "x" };
    const e = event("order_cancelled", data);
    expect(e).toEqual({
      type: "order_cancelled",
      orderId: "o-1",
      clientOrderId: undefined,
      status: undefined,
      reason: undefined,
      tsMs: undefined,
      data,
    });
  });
});

describe("FieldReader.lenient", () => {
  it("never records a failure, and does not hide an earlier one", () => {
    const r = new FieldReader({ a: "", b: 5, c: "ok" });
    expect(r.lenient("a", r.str)).toBeUndefined();
    expect(r.lenient("missing", r.str)).toBeUndefined();
    expect(r.failed).toBeUndefined();
    expect(r.lenient("c", r.str)).toBe("ok");
    r.str("b"); // a required field failing
    expect(r.lenient("c", r.str)).toBe("ok");
    expect(r.lenient("a", r.str)).toBeUndefined();
    expect(r.failed).toBe("b");
  });

  it("payouts() (vault_position_redeemed, required) still wants decimal strings", () => {
    const r = new FieldReader({ p: [1, 0] });
    r.payouts("p");
    expect(r.failed).toBe("p");
    const n = new FieldReader({ p: [1, 0] });
    expect(n.payoutNumerators("p")).toEqual({ "0": "1", "1": "0" });
    expect(n.failed).toBeUndefined();
  });
});
