import type { Engine } from "../engine/engine-api.js";
import type { GatewayClient } from "../gateway/client.js";
import type { Channel } from "../gateway/types.js";
import type { Logger } from "../observability/logger.js";

/**
 * The /ws/user channels whose events the engine's state follows: user_fills (each fill applied at
 * once) and user_orders (an `order_cancelled` ends an order the engine holds open). An event of
 * either missed leaves the engine on a wrong inventory or a wrong set of resting orders until a
 * reconcile reads the exchange.
 */
const OWN_CHANNELS: ReadonlySet<Channel> = new Set<Channel>(["user_fills", "user_orders"]);

/**
 * Reconciles the gaps of the own streams on /ws/user (Feeds), beyond the reconnect's own reconcile:
 * - a subscription the server was found no longer to hold while the socket lived (the periodic
 *   list_subscriptions check, GatewayClient.onLost): what it carried since was pushed to nobody, so
 *   the engine reconciles at once, and once more when the server takes it again (an event matched
 *   between that reconcile's REST read and the resubscribe is in neither). Without it those fills
 *   reached the engine only at the next periodic reconcile (30 s by default), the bot quoting
 *   meanwhile on an inventory missing its own fills;
 * - after a /ws/user reconnect (`reconnected`), once more when user_fills is accepted again, for
 *   the same reason;
 * - a user_fill the gateway could not read (onRefused) is still a fill: reconciled now rather than
 *   at the next periodic reconcile.
 */
export class OwnStreams {
  readonly #engine: Engine;
  readonly #logger: Logger;
  /** Own channels with a gap not yet closed: reconcile again once each is accepted. */
  readonly #catchUp = new Set<Channel>();

  /** Listens on `user`; the removals are pushed onto `off`. */
  constructor(user: GatewayClient, engine: Engine, logger: Logger, off: (() => void)[]) {
    this.#engine = engine;
    this.#logger = logger;
    off.push(
      user.onLost((channel) => this.#lost(channel)),
      user.onAccepted((channel) => {
        if (!this.#catchUp.delete(channel)) return;
        logger.info({ channel }, `/ws/user: ${channel} subscribed again: reconciling the events of the gap`);
        engine.onReconnect();
      }),
      user.onRefused((r) => {
        if (r.channel !== "user_fills") return;
        logger.warn({ rejected: r.rejected, field: r.field }, "unreadable user_fill dropped: reconciling");
        engine.onReconnect();
      }),
    );
  }

  /** /ws/user reconnected (the caller reconciles now): once more when user_fills is accepted again. */
  reconnected(): void {
    this.#catchUp.add("user_fills");
  }

  /** A retried subscription of `channel` is back and reconciled now (Feeds): that is its catch-up too. */
  restored(channel: Channel): void {
    this.#catchUp.delete(channel);
  }

  #lost(channel: Channel): void {
    if (!OWN_CHANNELS.has(channel)) return;
    this.#catchUp.add(channel);
    // The gateway warned of the loss already; this says what it costs.
    this.#logger.info(
      { channel },
      `/ws/user: the server no longer held our ${channel} subscription: reconciling now, and again once it is back`,
    );
    this.#engine.onReconnect();
  }
}
