import type { TimerId } from "../../core/clock.js";
import type { BookChangesEvent } from "../../venue/events.js";
import { wireBookSnapshot, wireChanges, wireLevels } from "../../venue/wire.js";
import type { MockContext } from "../context.js";
import { isSilenced, takeReorder, takeSkipSeq } from "./feed-faults.js";
import type { Hub } from "./hub.js";
import type { Subscription } from "./subscriptions.js";

/** Spec, Limits: order book snapshot depth. */
export const BOOK_DEPTH = 100;

/**
 * The token_book channel. The feed's seq per token is the venue's book seq plus an offset that
 * grows by one for every periodic book_update (a full state takes a seq of its own) and for every
 * injected gap, so a snapshot taken at any moment carries the seq the next frame continues from
 * and a client that resyncs after a fault converges on the venue's book. The offsets live in the
 * context (ctx.bookSeq) because the REST orderbook reports the same seq.
 *
 * Faults (feed-faults.ts): skipSeq makes the next frame's prevSeq one past the last seq sent (a
 * lost frame); reorder holds the next frame back and sends it after the one that follows;
 * silenced sends nothing (snapshots included) while the seq keeps moving with the venue.
 */
export class BookFeed {
  readonly #ctx: MockContext;
  readonly #hub: Hub;
  readonly #held = new Map<string, { type: string; data: unknown }>();
  #timer: TimerId | undefined;

  constructor(ctx: MockContext, hub: Hub) {
    this.#ctx = ctx;
    this.#hub = hub;
  }

  /** A venue diff → book_delta to the token's subscribers. */
  onBookChanges(e: BookChangesEvent): void {
    if (!this.#hub.has("token_book", e.tokenId)) return;
    const off = this.#advance(e.tokenId, 0);
    this.#deliver(e.tokenId, "book_delta", {
      tokenId: e.tokenId,
      conditionId: e.conditionId,
      outcomeIndex: e.outcomeIndex,
      seq: e.seq + off,
      prevSeq: e.prevSeq + off,
      changes: wireChanges(e.changes),
      tsMs: e.tsMs,
    });
  }

  /**
   * The current book to one subscription: book_snapshot (depth 100) with the feed's seq, or
   * book_snapshot_failed (reason `unknown_token`) for a token the venue does not list.
   */
  sendSnapshot(sub: Subscription, tokenId: string): void {
    if (isSilenced(this.#ctx.faults, tokenId)) return;
    const snap = this.#ctx.venue.bookSnapshot(tokenId, BOOK_DEPTH);
    if (snap === undefined) {
      const data = { tokenId, reason: "unknown_token", tsMs: this.#ctx.clock.now() };
      this.#hub.sendTo(sub, "book_snapshot_failed", data, tokenId);
      return;
    }
    const data = { ...wireBookSnapshot(snap), seq: this.#ctx.bookSeq.seqOf(tokenId, snap.seq) };
    this.#hub.sendTo(sub, "book_snapshot", data, tokenId);
  }

  /** A full book_update (seq/prevSeq, depth 100) to every subscribed token's subscribers. */
  publishUpdates(): void {
    for (const tokenId of this.#hub.index.keys("token_book")) {
      const snap = this.#ctx.venue.bookSnapshot(tokenId, BOOK_DEPTH);
      if (snap === undefined) continue;
      const seq = snap.seq + this.#advance(tokenId, 1);
      this.#deliver(tokenId, "book_update", {
        tokenId,
        conditionId: snap.conditionId,
        outcomeIndex: snap.outcomeIndex,
        seq,
        prevSeq: seq - 1,
        bids: wireLevels(snap.bids),
        asks: wireLevels(snap.asks),
        tsMs: snap.tsMs,
      });
    }
  }

  /** Runs the periodic book_update (timing.bookUpdateIntervalMs) while anyone subscribes to token_book. */
  ensureTimer(): void {
    const interval = this.#ctx.scenario.timing.bookUpdateIntervalMs;
    if (this.#timer !== undefined || interval <= 0) return;
    this.#timer = this.#ctx.clock.setTimer(interval, () => {
      this.#timer = undefined;
      if (this.#hub.index.keys("token_book").length === 0) return;
      this.publishUpdates();
      this.ensureTimer();
    });
  }

  dispose(): void {
    if (this.#timer !== undefined) this.#ctx.clock.cancelTimer(this.#timer);
    this.#timer = undefined;
    this.#held.clear();
  }

  // Moves the token's offset by `extra` (+1 more for a pending skipSeq fault) and returns it.
  #advance(tokenId: string, extra: number): number {
    return this.#ctx.bookSeq.advance(tokenId, extra + (takeSkipSeq(this.#ctx.faults, tokenId) ? 1 : 0));
  }

  #deliver(tokenId: string, type: string, data: unknown): void {
    if (isSilenced(this.#ctx.faults, tokenId)) return;
    const held = this.#held.get(tokenId);
    if (held !== undefined) {
      this.#held.delete(tokenId);
      this.#hub.publish("token_book", tokenId, type, data);
      this.#hub.publish("token_book", tokenId, held.type, held.data);
      return;
    }
    if (takeReorder(this.#ctx.faults, tokenId)) {
      this.#held.set(tokenId, { type, data });
      return;
    }
    this.#hub.publish("token_book", tokenId, type, data);
  }
}
