import { describe, expect, it } from "vitest";
import { LifecycleMemory } from "../../../src/backtest/sim/lifecycle.js";
import { LifecycleCarry } from "../../../src/gateway/record/lifecycle-carry.js";
import { parseEventFrame } from "../../../src/gateway/schema/events.js";
import type { MarketFrame } from "../../../src/recorded/format.js";

/*
 * review18 r2-replay: the spec's platform_status is a "passthrough of the status producer; example
 * fields: frozen, reason, since, etaUnfreeze" — `frozen` is optional (the parser and the replay
 * take a frame without it as saying nothing of the freeze). LifecycleCarry keeps the platform's LAST
 * platform_status frame, whatever it holds: a freeze followed by an update without `frozen` (a new
 * etaUnfreeze, a reason) is carried as that update alone, and a rotated file replayed alone quotes
 * through the freeze — what the carry exists to prevent.
 */

const platform = (data: Record<string, unknown>): MarketFrame => ({
  type: "platform_status",
  sid: 4,
  channel: "system",
  id: "platform_status",
  data,
});

describe("LifecycleCarry: the platform's freeze", () => {
  it("a freeze followed by a platform_status without `frozen` is still carried as frozen", () => {
    const c = new LifecycleCarry();
    c.accepted(platform({ frozen: true, reason: "maintenance" }));
    c.accepted(platform({ reason: "maintenance", etaUnfreeze: "2026-06-01T01:00:00Z" }));
    const heads = c.heads(2);
    // What a rotated file replayed alone acts on: a carried frame the replay's memory calls new.
    const memory = new LifecycleMemory();
    const frozen: boolean[] = [];
    for (const f of heads) {
      const parsed = parseEventFrame(f as unknown as Record<string, unknown>, "market");
      if ("rejected" in parsed) continue;
      const e = parsed.event;
      if (!memory.adds(e)) continue;
      memory.note(e);
      if (e.type === "platform_status" && e.frozen !== undefined) frozen.push(e.frozen);
    }
    expect(frozen).toEqual([true]);
  });
});
