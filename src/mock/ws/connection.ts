import WebSocket from "ws";
import type { Clock, TimerId } from "../../core/clock.js";
import type { Identity } from "../auth/authenticate.js";
import type { FaultState } from "../faults/state.js";
import type { Caller, Gateway } from "./channels.js";
import { type Subscriber, type SubscriberIndex, SubscriptionTable } from "./subscriptions.js";

/**
 * One authenticated socket: who it is, which gateway, its subscriptions, and its outbound path.
 * With `faults.wsLatencyMs` set, frames wait that long on the mock's clock before they are
 * written, in order (a later frame never overtakes an earlier one when the latency shrinks).
 * A client that stops reading is dropped (terminated) once more than `maxBufferedBytes` wait in
 * its send buffer, rather than letting the mock's memory grow without bound.
 */
export class Connection implements Subscriber {
  readonly ws: WebSocket;
  readonly gateway: Gateway;
  readonly identity: Identity;
  readonly subs: SubscriptionTable;
  readonly caller: Caller;
  readonly #clock: Clock;
  readonly #faults: FaultState;
  readonly #maxBuffered: number;
  readonly #delayed: { due: number; text: string }[] = [];
  #timer: TimerId | undefined;

  constructor(
    ws: WebSocket,
    gateway: Gateway,
    identity: Identity,
    deps: { index: SubscriberIndex; clock: Clock; faults: FaultState; maxBufferedBytes: number },
  ) {
    this.ws = ws;
    this.gateway = gateway;
    this.identity = identity;
    this.#clock = deps.clock;
    this.#faults = deps.faults;
    this.#maxBuffered = deps.maxBufferedBytes;
    this.subs = new SubscriptionTable(deps.index, this);
    this.caller = { gateway, scopes: identity.key.scopes, vault: identity.wallet.vault };
  }

  get wallet(): string {
    return this.identity.wallet.address;
  }

  get keyId(): string {
    return this.identity.key.keyId;
  }

  get partnerId(): string {
    return this.identity.partner.id;
  }

  /** Queues one text frame (silently dropped once the socket is no longer open). */
  send(text: string): void {
    const latency = this.#faults.wsLatencyMs;
    if (latency <= 0 && this.#delayed.length === 0) {
      this.#write(text);
      return;
    }
    const last = this.#delayed[this.#delayed.length - 1];
    const due = Math.max(this.#clock.now() + Math.max(0, latency), last?.due ?? 0);
    this.#delayed.push({ due, text });
    if (this.#timer === undefined) this.#arm();
  }

  /** Closes with a code and reason (4401 api_key_revoked, 1008 forbidden origin, …). */
  close(code: number, reason: string): void {
    this.#stop();
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) {
      this.ws.close(code, reason);
    }
  }

  /** Drops the TCP connection without a close frame, as a network failure would. */
  terminate(): void {
    this.#stop();
    this.ws.terminate();
  }

  /** Releases subscriptions and timers; called once the socket has closed. */
  dispose(): void {
    this.#stop();
    this.subs.clear();
  }

  #write(text: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > this.#maxBuffered) {
      this.terminate();
      return;
    }
    this.ws.send(text);
  }

  #arm(): void {
    const head = this.#delayed[0];
    if (head === undefined) return;
    this.#timer = this.#clock.setTimer(head.due - this.#clock.now(), () => this.#flush());
  }

  #flush(): void {
    this.#timer = undefined;
    const now = this.#clock.now();
    let n = 0;
    while (n < this.#delayed.length && (this.#delayed[n] as { due: number }).due <= now) n++;
    for (const item of this.#delayed.splice(0, n)) this.#write(item.text);
    this.#arm();
  }

  #stop(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
    this.#delayed.length = 0;
  }
}
