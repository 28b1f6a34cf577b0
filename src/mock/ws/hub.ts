import { type Channel, isWalletScoped } from "./channels.js";
import { EventFrame } from "./frames.js";
import { SubscriberIndex, type Subscription } from "./subscriptions.js";

/**
 * The publishers' way out: one event to every subscription covering (channel, key), formatted
 * once. Feed faults (silenced tokens) are the publishers' business, not the hub's.
 */
export class Hub {
  readonly index = new SubscriberIndex();

  /**
   * Sends an event to every subscriber of (channel, key); returns how many got it. The key is the
   * envelope's `id`, except on the wallet-scoped channels, where it is the wallet and the spec's
   * envelope has no `id`.
   */
  publish(channel: Channel, key: string, type: string, data: unknown): number {
    const subs = this.index.get(channel, key);
    if (subs === undefined || subs.size === 0) return 0;
    const frame = new EventFrame(type, channel, isWalletScoped(channel) ? undefined : key, data);
    for (const sub of subs) sub.owner.send(frame.text(sub.sid));
    return subs.size;
  }

  /** Sends an event to one subscription only (a snapshot after subscribe, a requested refresh). */
  sendTo(sub: Subscription, type: string, data: unknown, envelopeId: string | undefined): void {
    sub.owner.send(new EventFrame(type, sub.channel, envelopeId, data).text(sub.sid));
  }

  /** True when anyone listens to (channel, key). */
  has(channel: Channel, key: string): boolean {
    return this.index.has(channel, key);
  }
}
