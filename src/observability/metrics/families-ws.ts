import { Counter, Gauge, type Registry } from "prom-client";
import type { GatewayCounters } from "../../gateway/counters.js";
import { MARKET_CHANNELS, USER_CHANNELS } from "../../gateway/types.js";
import { LabelCap } from "./label-cap.js";
import type { MetricsContext } from "./sources.js";

type Scalar = "connectionsOpened" | "reconnects" | "disconnects" | "watchdogTrips" | "commandTimeouts";
type PerKey = "framesByType" | "malformed" | "dropped" | "subscriptionRefusals" | "subscriptionsLost";

/** The WebSocket gateway families, read from each GatewayClient's counters at scrape time. */
export function wsFamilies(registry: Registry, ctx: MetricsContext) {
  const registers = [registry];
  const { sources, deltas } = ctx;
  // Frame types and reasons are closed sets in the code; the cap guards against a server inventing more.
  const keyCap = new LabelCap(64);
  const scalar = (c: Counter<"gateway">, field: Scalar) => {
    for (const [gateway, g] of sources.gateways) {
      c.inc({ gateway }, deltas.step(g.counters, `ws:${field}`, g.counters[field]));
    }
  };
  const perKey = (c: Counter<string>, field: PerKey, label: "type" | "reason" | "channel") => {
    for (const [gateway, g] of sources.gateways) {
      const map: GatewayCounters[PerKey] = g.counters[field];
      for (const [k, n] of Object.entries(map)) {
        c.inc({ gateway, [label]: keyCap.of(k) }, deltas.step(g.counters, `ws:${field}:${k}`, n));
      }
    }
  };
  return {
    connections: new Gauge({
      name: "mm_ws_connections",
      help: "WebSocket connections open now, per gateway (market, user).",
      labelNames: ["gateway"] as const,
      registers,
      collect() {
        this.reset();
        for (const [gateway, g] of sources.gateways) this.set({ gateway }, g.counters.connectionsOpen);
      },
    }),
    subscriptionChecks: new Gauge({
      name: "mm_ws_subscription_checks_active",
      help: "1 while each connection's subscriptions are checked periodically (exchange.wsSubscriptionCheckMs), 0 when off or paused after the server's list_subscriptions proved wrong, per gateway.",
      labelNames: ["gateway"] as const,
      registers,
      collect() {
        this.reset();
        for (const [gateway, g] of sources.gateways)
          this.set({ gateway }, g.counters.subscriptionChecksActive);
      },
    }),
    connects: new Counter({
      name: "mm_ws_connects_total",
      help: "WebSocket connections that reached the `connected` frame, per gateway.",
      labelNames: ["gateway"] as const,
      registers,
      collect() {
        scalar(this, "connectionsOpened");
      },
    }),
    reconnects: new Counter({
      name: "mm_ws_reconnects_total",
      help: "WebSocket connections re-established after a drop, per gateway.",
      labelNames: ["gateway"] as const,
      registers,
      collect() {
        scalar(this, "reconnects");
      },
    }),
    disconnects: new Counter({
      name: "mm_ws_disconnects_total",
      help: "WebSocket connections lost (any cause but a requested close), per gateway.",
      labelNames: ["gateway"] as const,
      registers,
      collect() {
        scalar(this, "disconnects");
      },
    }),
    watchdog: new Counter({
      name: "mm_ws_watchdog_trips_total",
      help: "Connections declared dead by the silence watchdog, per gateway.",
      labelNames: ["gateway"] as const,
      registers,
      collect() {
        scalar(this, "watchdogTrips");
      },
    }),
    commandTimeouts: new Counter({
      name: "mm_ws_command_timeouts_total",
      help: "Commands awaited (subscribe, update_subscription, unsubscribe, ping…) unanswered in time, per gateway.",
      labelNames: ["gateway"] as const,
      registers,
      collect() {
        scalar(this, "commandTimeouts");
      },
    }),
    frames: new Counter({
      name: "mm_ws_frames_total",
      help: "Well-formed frames received, per gateway and frame type.",
      labelNames: ["gateway", "type"] as const,
      registers,
      collect() {
        perKey(this, "framesByType", "type");
      },
    }),
    malformed: new Counter({
      name: "mm_ws_frames_malformed_total",
      help: "Frames dropped as malformed, per gateway and reason (not_json, unknown_type, bad_field…).",
      labelNames: ["gateway", "reason"] as const,
      registers,
      collect() {
        perKey(this, "malformed", "reason");
      },
    }),
    dropped: new Counter({
      name: "mm_ws_frames_dropped_total",
      help: "Well-formed frames dropped, per gateway and reason (unsolicited, late_reply, listener_error, stray_sid).",
      labelNames: ["gateway", "reason"] as const,
      registers,
      collect() {
        perKey(this, "dropped", "reason");
      },
    }),
    subscriptionRefusals: new Counter({
      name: "mm_ws_subscription_refusals_total",
      help: "Subscription entries the server refused (at subscribe, on the resubscribe after a reconnect, on each retry), per gateway and channel:code.",
      labelNames: ["gateway", "reason"] as const,
      registers,
      collect() {
        perKey(this, "subscriptionRefusals", "reason");
      },
    }),
    subscriptionsRepaired: new Counter({
      name: "mm_ws_subscriptions_repaired_total",
      help: "Subscriptions (or ids of one) the server was found no longer to hold (list_subscriptions, on a drop sign or the periodic check), each subscribed again, per gateway and channel.",
      labelNames: ["gateway", "channel"] as const,
      registers,
      collect() {
        // Every channel of the gateway from 0, so that increase() counts a series' first repair
        // (a series born at 1 would show no increase) and the alert can read it.
        for (const [gateway] of sources.gateways) {
          for (const channel of gateway === "market" ? MARKET_CHANNELS : USER_CHANNELS)
            this.inc({ gateway, channel }, 0);
        }
        perKey(this, "subscriptionsLost", "channel");
      },
    }),
  };
}

/** The families wsFamilies returns. */
export type WsFamilies = ReturnType<typeof wsFamilies>;
