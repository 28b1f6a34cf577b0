import type { MarketStatusEvent } from "../../venue/events.js";
import { iso } from "../../venue/wire.js";
import type { MockContext } from "../context.js";
import type { GatewayControl } from "../faults/gateway-control.js";
import type { Hub } from "./hub.js";
import type { Subscription } from "./subscriptions.js";

/** What publishMarketLifecycle accepts (the GatewayControl signature). */
export type LifecycleEvent = Parameters<GatewayControl["publishMarketLifecycle"]>[1];

export const PLATFORM_STATUS = "platform_status";

/**
 * condition_lifecycle and system/platform_status.
 *
 * From the venue's status changes: `market_status` on every change, preceded by `market_paused`
 * when the market becomes PAUSED and `market_unpaused` when it goes from PAUSED back to OPEN.
 * `market_resolved` needs a resolution the venue does not know, so it comes only from
 * publishMarketLifecycle (as can any other lifecycle event an operator wants pushed).
 * This is more than the exchange sends (the spec: most lifecycle events are not yet emitted, not
 * saying which); faults.lifecycleSilenced gives the silent exchange. The README's mock section says
 * why the default stays generous.
 *
 * platform_status data: `{frozen, reason?, since, tsMs}` — frozen from faults.platformFrozen,
 * reason only while frozen, since = ISO time the current state began. Sent to a new `system`
 * subscription at once (so a client knows the state without waiting for a change), and to every
 * subscriber on publishPlatformStatus.
 */
export class LifecycleFeed {
  readonly #ctx: MockContext;
  readonly #hub: Hub;
  #frozen: boolean;
  #since: number;

  constructor(ctx: MockContext, hub: Hub) {
    this.#ctx = ctx;
    this.#hub = hub;
    this.#frozen = ctx.faults.platformFrozen;
    this.#since = ctx.clock.now();
  }

  onMarketStatus(e: MarketStatusEvent): void {
    if (e.status === "PAUSED" && e.previous !== "PAUSED")
      this.publish(e.conditionId, { type: "market_paused" });
    if (e.previous === "PAUSED" && e.status === "OPEN")
      this.publish(e.conditionId, { type: "market_unpaused" });
    this.publish(e.conditionId, { type: "market_status", status: e.status });
  }

  /** Pushes one lifecycle event to the condition's subscribers (none while lifecycle is silenced). */
  publish(conditionId: string, event: LifecycleEvent): void {
    if (this.#ctx.faults.lifecycleSilenced) return;
    const id = conditionId.toLowerCase();
    const tsMs = this.#ctx.clock.now();
    let data: Record<string, unknown>;
    switch (event.type) {
      case "market_paused":
      case "market_unpaused":
        data = { conditionId: id, tsMs };
        break;
      case "market_resolved":
        data = { conditionId: id, resolution: event.resolution };
        if (event.payouts !== undefined) data.payouts = event.payouts;
        data.tsMs = tsMs;
        break;
      case "market_status":
        data = { conditionId: id, status: event.status };
        if (event.reason !== undefined) data.reason = event.reason;
        data.tsMs = tsMs;
        break;
    }
    this.#hub.publish("condition_lifecycle", id, event.type, data);
  }

  /** Reads faults.platformFrozen and pushes the platform status to every `system` subscriber. */
  publishPlatformStatus(): void {
    this.#refresh();
    this.#hub.publish("system", PLATFORM_STATUS, PLATFORM_STATUS, this.#status());
  }

  /** The current platform status to one new subscription. */
  sendPlatformStatus(sub: Subscription): void {
    this.#refresh();
    this.#hub.sendTo(sub, PLATFORM_STATUS, this.#status(), PLATFORM_STATUS);
  }

  #refresh(): void {
    if (this.#ctx.faults.platformFrozen !== this.#frozen) {
      this.#frozen = this.#ctx.faults.platformFrozen;
      this.#since = this.#ctx.clock.now();
    }
  }

  #status(): Record<string, unknown> {
    const base = { frozen: this.#frozen };
    const reason = this.#frozen ? { reason: "frozen by the operator" } : {};
    return { ...base, ...reason, since: iso(this.#since), tsMs: this.#ctx.clock.now() };
  }
}
