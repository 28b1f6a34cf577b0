import { type Clock, monotonicNow, type TimerId } from "../core/clock.js";
import type { Side } from "../core/types.js";
import type { TrackedOrder } from "../execution/order-state.js";
import type { OrderAges, OrderStore } from "../execution/order-store.js";
import type { TokenTable } from "./engine-tokens.js";

/**
 * How long before its on-chain expiry a resting quote is replaced, ms, at least: a replacement
 * placed then has a few seconds to be signed, sent and rest before the old one vanishes.
 */
export const RENEW_LEAD_MIN_MS = 5_000;

/**
 * The lead of the daemon: {@link RENEW_LEAD_MIN_MS}, or two request timeouts when longer. The
 * replacement must rest before the old order expires: one placement's round trip (bounded by the
 * request timeout, beyond which it is ambiguous) with as much again for the queue and a retry.
 * @example renewLeadMs(4_000) // 8000
 */
export function renewLeadMs(requestTimeoutMs: number): number {
  return Math.max(RENEW_LEAD_MIN_MS, 2 * requestTimeoutMs);
}

/**
 * How long after its creation an order of this run is replaced, ms, for orders signed to expire
 * `lifetimeMs` after signing. The signer stamps whole seconds (⌊exchange now / 1000⌋ + lifetime),
 * so the order may expire up to a second before creation + lifetime on our clock: that second
 * comes off, then the lead. A lifetime shorter than twice that is renewed at half-life instead, so
 * that an order is never replaced as soon as it is placed (a replacement every step).
 * @example renewAfterMs(60_000, 5_000) // 54000
 */
export function renewAfterMs(lifetimeMs: number, leadMs: number): number {
  return Math.max(lifetimeMs - 1_000 - leadMs, Math.ceil(lifetimeMs / 2));
}

/**
 * Replacement of quotes before their on-chain expiry (signing.orderExpirySeconds). A signed order
 * expires `lifetime` after it was signed (on our clock: withExpiry stamps it on the exchange's
 * clock, which judges it); left to expire, it vanishes at the exchange and its level stays empty
 * until mm learns it ended. The engine knows when each order of this run was created, and an order
 * is signed only after that, so creation + lifetime − 1 s is never later than its real expiry: the
 * safe side. Its age is elapsed time (OrderStore.agesAt: the monotonic clock where the wall clock can
 * step), as is the exchange's expiry once signed: timed on the wall stamps, a step back of our clock
 * by minutes (NTP correcting a host that ran ahead) held every renewal back by the step, and the
 * quotes expired on the book, their levels empty until the renewal came. An order within
 * the lead of that is `expiring`: the order manager no longer keeps it even at the desired price
 * and replaces it — an ask placement first where the shares let both rest (its replacement sized
 * beside it: engine-in-flight.ts), a bid cancel-then-place (its USDC is not there twice:
 * order-manager-diff.ts).
 *
 * An adopted order (reconcile.onStart adopt) was signed by an earlier run, when is unknown, and
 * may carry a longer expiry or none, which would outlive the dead-man's switch the setting is: it
 * is expiring from the start, replaced at its token's first step.
 *
 * A timer on the injected clock steps the tokens at their orders' renewal instants, so a quiet book
 * (no event, a memo that would hold: QuoteMemo.lapse) renews on time too. It is armed when a step
 * places orders (placed) and, each time it fires, for the earliest instant still ahead, or a retry
 * (a quarter of the lead, at least 1 s) while an order it stepped for may still rest: a step that
 * changes nothing costs a strategy run, and a replacement held back (the caps, a level waiting for
 * an answer) is placed then. A replacement refused outright is tried again at the retry until the
 * old order's earliest expiry (`refused`), also once the old order is gone (a bid's, cancelled
 * first), so its level is not left empty until the token's next renewal. Off (`lifetimeSeconds`
 * 0, a backtest): no order is ever expiring and no timer is set.
 */
export class OrderRenewal {
  readonly #clock: Clock;
  readonly #afterMs: number;
  readonly #retryMs: number;
  readonly #enabled: boolean;
  readonly #tokens: TokenTable;
  readonly #store: OrderStore;
  readonly #step: (tokenId: string) => void;
  readonly #lifetimeMs: number;
  readonly #leadMs: number;
  /** Levels being renewed, by levelKey: until when their old order may rest, and whether refused. */
  readonly #renewing = new Map<string, Renewing>();
  // One ages view per wall reading: the order manager asks for every live order within one step.
  #ages: { readonly now: number; readonly ages: OrderAges } | undefined;
  #timer: TimerId | undefined;
  /** When the timer fires, on monotonicNow's scale. */
  #armedAt = Number.POSITIVE_INFINITY;
  #stopped = false;

  constructor(
    clock: Clock,
    timing: { readonly lifetimeSeconds: number; readonly leadMs: number },
    tokens: TokenTable,
    store: OrderStore,
    step: (tokenId: string) => void,
  ) {
    this.#clock = clock;
    this.#enabled = timing.lifetimeSeconds > 0;
    this.#lifetimeMs = timing.lifetimeSeconds * 1_000;
    this.#leadMs = timing.leadMs;
    this.#afterMs = renewAfterMs(this.#lifetimeMs, timing.leadMs);
    // A few tries within the lead: each a step, which sends nothing while the level waits.
    this.#retryMs = Math.max(1_000, Math.floor(timing.leadMs / 4));
    this.#tokens = tokens;
    this.#store = store;
    this.#step = step;
  }

  /** Whether orders expire at all (the order manager's `expiring` is needed). */
  get enabled(): boolean {
    return this.#enabled;
  }

  /**
   * How long until the order is to be replaced, ms (0 or less: due), by its age in `ages`; an
   * adopted one at once.
   */
  renewInMs(o: TrackedOrder, ages: OrderAges): number {
    return o.adopted ? Number.NEGATIVE_INFINITY : this.#afterMs - ages.createdMs(o);
  }

  /** Whether an open order is to be replaced at `now` (OrderManagerOptions.expiring). */
  expiring(o: TrackedOrder, now: number): boolean {
    return this.#enabled && o.state === "open" && this.renewInMs(o, this.#agesAt(now)) <= 0;
  }

  #agesAt(now: number): OrderAges {
    if (this.#ages?.now !== now) this.#ages = { now, ages: this.#store.agesAt(now) };
    return this.#ages.ages;
  }

  /**
   * A placement on the token's (side, level) was refused outright at `now`: when that level is
   * being renewed (its old order was due and may not have expired yet), the token is stepped again
   * every retry until the old order's earliest expiry, or until the level is quoted by an order not
   * due. A bid's replacement goes after its old order's cancel: refused, nothing of ours rests there
   * any more, and a token on a quiet book (bands) has no other step to place it again.
   */
  refused(tokenId: string, side: Side, level: number, now: number): void {
    const r = this.#renewing.get(levelKey(tokenId, side, level));
    if (r === undefined || r.untilMono <= monotonicNow(this.#clock)) return;
    r.refused = true;
    this.#arm(now + this.#retryMs);
  }

  /** A step created placements at `now`: their renewal instant is armed (if none is earlier). */
  placed(now: number): void {
    if (this.#enabled) this.#arm(now + this.#afterMs);
  }

  /** Clears the timer for good (the engine stops). */
  stop(): void {
    this.#stopped = true;
    this.#renewing.clear();
    this.#disarm();
  }

  /**
   * Arms the timer for wall instant `atMs` (read in the same run as the caller's `now`) unless one
   * fires sooner. The armed instant is compared on the monotonic clock, as the timer runs: compared
   * on the wall, a placement after a step back of the clock looked earlier than the armed renewal of
   * older quotes, replaced it, and those quotes expired on the book before the timer came.
   */
  #arm(atMs: number): void {
    if (this.#stopped) return;
    const delayMs = Math.max(0, atMs - this.#clock.now());
    const atMono = monotonicNow(this.#clock) + delayMs;
    if (atMono >= this.#armedAt) return;
    this.#disarm();
    this.#armedAt = atMono;
    this.#timer = this.#clock.setTimer(delayMs, () => this.#fire());
  }

  #disarm(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = this.#clock.now();
    const ages = this.#store.agesAt(now);
    const mono = monotonicNow(this.#clock);
    let next = Number.POSITIVE_INFINITY;
    const stepped = new Set<string>();
    for (const slot of this.#tokens.slots()) {
      const tokenId = slot.market.tokenId;
      let due = false;
      for (const o of this.#store.live(tokenId)) {
        const inMs = this.renewInMs(o, ages);
        if (o.state === "open" && inMs <= 0) {
          due = true;
          this.#renewal(o, ages, mono);
        }
        // Placements in flight are armed for too: they will rest.
        else if (inMs > 0 && now + inMs < next) next = now + inMs;
      }
      if (due) stepped.add(tokenId);
    }
    for (const [key, r] of this.#renewing) {
      // Past the old order's earliest expiry, or quoted again by an order not due: over.
      if (r.untilMono <= mono || this.#quoted(r, ages)) this.#renewing.delete(key);
      else if (r.refused) stepped.add(r.tokenId);
    }
    for (const tokenId of stepped) {
      // The remembered step would be repeated as it is (nothing it read changed): it must run.
      this.#tokens.get(tokenId)?.memo.lapse();
      this.#step(tokenId);
      // Stepped again shortly while the old order may still rest: a replacement held back, its
      // stand-in's cancel that did not go, or a replacement refused is tried again before the
      // expiry (a quiet book brings no other step), not left to it.
      next = Math.min(next, now + this.#retryMs);
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  }

  /** Notes the level of a due order as being renewed (once per lifetime of it); `mono`: monotonicNow. */
  #renewal(o: TrackedOrder, ages: OrderAges, mono: number): void {
    const key = levelKey(o.tokenId, o.side, o.level);
    const known = this.#renewing.get(key);
    if (known !== undefined && known.untilMono > mono) return;
    // An adopted order's expiry is unknown: the lead is the window its renewal gets.
    const untilMono = mono + (o.adopted ? this.#leadMs : this.#lifetimeMs - 1_000 - ages.createdMs(o));
    this.#renewing.set(key, { tokenId: o.tokenId, side: o.side, level: o.level, untilMono, refused: false });
  }

  /** Whether the level holds an order of ours not due for renewal (placing or resting). */
  #quoted(r: Renewing, ages: OrderAges): boolean {
    for (const o of this.#store.live(r.tokenId)) {
      if (o.side === r.side && o.level === r.level && o.state !== "cancelling" && this.renewInMs(o, ages) > 0)
        return true;
    }
    return false;
  }
}

/** A level whose old order fell due: stepped on a refusal until that order's earliest expiry. */
interface Renewing {
  readonly tokenId: string;
  readonly side: Side;
  readonly level: number;
  /** The old order's earliest expiry, on monotonicNow's scale (a wall step does not move it). */
  readonly untilMono: number;
  refused: boolean;
}

function levelKey(tokenId: string, side: Side, level: number): string {
  return `${tokenId}\u0000${side}\u0000${level}`;
}
