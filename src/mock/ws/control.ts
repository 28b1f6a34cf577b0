import type { GatewayControl } from "../faults/gateway-control.js";
import type { Connection } from "./connection.js";
import type { Feeds } from "./feeds.js";
import { CLOSE_AUTH } from "./handshake.js";

/**
 * GatewayControl over the live connections: what the admin API calls when it revokes a key,
 * suspends a partner, drops the network or changes a market or the platform.
 */
export function gatewayControl(connections: ReadonlySet<Connection>, feeds: Feeds): GatewayControl {
  const closeWhere = (match: (c: Connection) => boolean, reason: string) => {
    for (const c of [...connections]) if (match(c)) c.close(CLOSE_AUTH, reason);
  };
  return {
    dropAll: (gateway) => {
      for (const c of [...connections]) if (gateway === undefined || c.gateway === gateway) c.terminate();
    },
    dropSubscriptions: (tokenIds) => {
      let n = 0;
      for (const c of connections) {
        if (c.gateway !== "market") continue;
        for (const sub of c.subs.list()) {
          if (sub.channel === "token_book" && tokenIds.some((t) => sub.ids.has(t)) && c.subs.remove(sub.sid))
            n++;
        }
      }
      return n;
    },
    closeKey: (keyId, reason) => closeWhere((c) => c.keyId === keyId, reason),
    closePartner: (partnerId, reason) => closeWhere((c) => c.partnerId === partnerId, reason),
    publishPlatformStatus: () => feeds.lifecycle.publishPlatformStatus(),
    publishMarketLifecycle: (conditionId, event) => feeds.lifecycle.publish(conditionId, event),
    openSockets: (gateway) => {
      if (gateway === undefined) return connections.size;
      let n = 0;
      for (const c of connections) if (c.gateway === gateway) n++;
      return n;
    },
  };
}
