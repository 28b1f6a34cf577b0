import type { Fill } from "../core/trading.js";
import type { TrackedOrder } from "../execution/order-state.js";
import { applyFill } from "../execution/reconcile-fills.js";
import { oldestFirst } from "../execution/reconcile-trades.js";
import type { EngineCore } from "./engine-core.js";
import { observePnl } from "./engine-kill-switch.js";

/**
 * Where fills enter the engine. The session starts at the exchange-clock instant S the start-up
 * positions stand for (prepareStart). A fill stamped before S belongs to the baseline (the positions
 * already hold it), so it is ignored; fills that arrive before the baseline is taken wait until it is,
 * then pass the same test. Everything else is applied at once to inventory and to its order
 * (idempotent by tradeId + orderId, order-independent), the PnL goes to the risk guard (kill switch),
 * and the token is requoted (inventory skew, caps).
 *
 * The millisecond S itself is the one the timestamps cannot split: the positions may hold a fill
 * stamped S or not, depending on which came first within it. Such a fill that had reached us before
 * the positions answer (it waited here) was made before the answer was sent, so it is taken to be in
 * the baseline, and marked so in inventory (excludeFill) so that its REST copy in a backfill is not
 * applied either; one that arrives later is applied. A same-millisecond fill delivered out of that
 * order is the one case left to the position check (a drift that lasts is corrected).
 *
 * user_fill is wallet-scoped: a fill on a token the engine does not trade is applied to nothing and
 * handed to the journal (`restored_fill`), which books it under that token; those that arrive before
 * the start-up reconcile has ended wait for it (releaseUntraded).
 */
export class FillIntake {
  readonly #core: EngineCore;
  #sinceMs: number | undefined;
  #waiting: Fill[] = [];
  /** Fills on untraded tokens held until the start-up search has handed over its older ones. */
  #untradedHeld: { fill: Fill }[] | undefined = [];
  #ignored = 0;

  constructor(core: EngineCore) {
    this.#core = core;
  }

  /** Fills before the baseline that were ignored, since start. */
  get ignored(): number {
    return this.#ignored;
  }

  /** The session start (the baseline's instant); undefined until taken. */
  get sinceMs(): number | undefined {
    return this.#sinceMs;
  }

  /**
   * A user_fill (WebSocket) of the wallet. One on a token this engine does not trade (an earlier
   * run's order filled before its orphan cancel landed, another process on the wallet) goes to the
   * journal alone: see #untraded.
   */
  onFill(fill: Fill): void {
    if (this.#core.tokens.get(fill.tokenId) === undefined) {
      this.#untraded(fill);
      return;
    }
    if (this.#sinceMs === undefined) {
      this.#waiting.push(fill);
      return;
    }
    if (fill.tsMs < this.#sinceMs) {
      this.#ignored++;
      this.#core.log.debug({ tradeId: fill.tradeId, tsMs: fill.tsMs }, "fill before the baseline ignored");
      return;
    }
    const unanswered = unansweredNamed(this.#core, fill);
    const eff = applyFill({ orders: this.#core.store, inventory: this.#core.inventory }, fill);
    if (unanswered !== undefined) answeredByFill(this.#core, unanswered);
    if (eff.applied) afterFill(this.#core, fill, "stream");
  }

  /**
   * The engine keeps no books for a token it does not trade: its risk figures (exposure, the kill
   * switch's PnL) and the position check cover its own tokens only, so such a fill never moved them.
   * Applied to an inventory slot never seeded from the journal, it only gave the journal a false
   * account of the token (that fill alone), written over the real one. It is handed over as a
   * `restored_fill` instead, whatever its time (the baseline split is the engine's own), for the
   * journal to book from its own account of the token; the journal's fill row makes a second
   * delivery (the start-up search's copy, a replay) a no-op.
   */
  #untraded(fill: Fill): void {
    if (this.#untradedHeld !== undefined) {
      this.#untradedHeld.push({ fill });
      return;
    }
    const core = this.#core;
    core.emit({ type: "restored_fill", atMs: core.clock.now(), fill, fee: undefined });
    core.log.info(
      {
        tradeId: fill.tradeId,
        orderId: fill.orderId,
        tokenId: fill.tokenId,
        side: fill.side,
        priceMicro: fill.priceMicro,
        sizeMicro: fill.sizeMicro.toString(),
        tsMs: fill.tsMs,
      },
      "fill on a token this run does not trade: not applied (its account is the journal's, when it is on)",
    );
  }

  /**
   * Lets the fills on untraded tokens that arrived during the start-up reconcile through, oldest
   * first, and every later one at once. Held until then because the start-up search hands over the
   * older fills made while mm was down (restored_fill) only once it is over: a stream fill booked
   * before them would split realised PnL and cost basis unlike the exchange. Called once that
   * reconcile has ended, whatever its outcome, and at stop.
   */
  releaseUntraded(): void {
    const held = this.#untradedHeld;
    if (held === undefined) return;
    this.#untradedHeld = undefined;
    held.sort(oldestFirst);
    for (const { fill } of held) this.#untraded(fill);
  }

  /**
   * Takes the baseline's instant (exchange clock) and lets the fills that waited for it through:
   * those stamped in that very millisecond came before the positions answer, so they are in it.
   */
  open(sinceMs: number): void {
    this.#sinceMs = sinceMs;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const f of waiting) {
      if (f.tsMs !== sinceMs) {
        this.onFill(f);
        continue;
      }
      this.#ignored++;
      this.#core.inventory.excludeFill(f);
      this.#core.log.debug({ tradeId: f.tradeId, tsMs: f.tsMs }, "fill of the baseline's millisecond: in it");
    }
  }
}

/** The ambiguous placement (unknown, no orderId yet) a fill names by clientOrderId, if any. */
function unansweredNamed(core: EngineCore, fill: Fill): TrackedOrder | undefined {
  const o = fill.clientOrderId === undefined ? undefined : core.store.get(fill.clientOrderId);
  return o?.state === "unknown" && o.orderId === undefined ? o : undefined;
}

/**
 * An ambiguous placement whose user_fill bound its orderId (OrderStore.recordFill) is answered: it
 * reached the book. Reported as a reconcile's history search reports one it finds
 * (`placements_answered`, FILLED when the fill completed it), so the journal writes the same answer.
 * No search looks for it any more (it has an id), and once filled whole it is no longer live when a
 * reconcile ends: without this it stayed unanswered in the journal, kept by retention for the whole
 * run and searched for again by the next start after a crash. Called when the fill binds a placement
 * already answered ambiguously, and (engine-reports.ts) when the ambiguous answer comes to one a fill
 * bound while it was still in flight.
 */
export function answeredByFill(core: EngineCore, o: TrackedOrder): void {
  if (o.orderId === undefined) return;
  const status = o.state === "filled" ? "FILLED" : undefined;
  const answer = { clientOrderId: o.clientOrderId, orderId: o.orderId, marketId: o.marketId, status };
  core.emit({
    type: "placements_answered",
    atMs: core.clock.now(),
    placements: [{ ...answer, givenUp: false }],
  });
  core.log.info(answer, "ambiguous placement answered by its fill: it reached the book");
}

/**
 * What follows a fill already applied to inventory (from the stream, or backfilled by a reconcile):
 * exposure and PnL totals, the kill switch, the listener and a requote of the token and of those
 * whose inventory limits the fill moved (requoteExposed).
 */
export function afterFill(core: EngineCore, fill: Fill, source: "stream" | "backfill"): void {
  const now = core.clock.now();
  const before = grossMark(core);
  core.positions.refresh(fill.tokenId);
  const positionMicro = core.positions.position(fill.tokenId);
  const pnlMicro = core.positions.pnlMicro;
  core.emit({ type: "fill", atMs: now, fill, source, positionMicro, pnlMicro });
  // Debug: the daemon's reporter writes the operator's line of each fill (from the event above);
  // at info too, every fill was logged twice.
  core.log.debug(
    {
      tokenId: fill.tokenId,
      side: fill.side,
      priceMicro: fill.priceMicro,
      sizeMicro: fill.sizeMicro.toString(),
      positionMicro: positionMicro.toString(),
      pnlMicro: pnlMicro.toString(),
      source,
    },
    "fill",
  );
  observePnl(core);
  // A fill (it may free funds): a refusal's back-off on the requote timer starts over (requote-timer.ts).
  const slot = core.tokens.get(fill.tokenId);
  if (slot !== undefined) slot.fillsSeen++;
  requoteExposed(core, [fill.tokenId], before);
}

/**
 * What follows fees attached to fills already applied. A fee resolves after settlement, so it
 * normally comes with a REST backfill for a fill the WebSocket delivered long before: the token's
 * PnL (fees are part of it) and, for a BUY fee paid in shares, its position and gross exposure move
 * without any fill. Refreshes the PositionBook for each such token (a flat one too: its fees still
 * count), feeds the total PnL to the kill switch and requotes the tokens (skew, caps) and those whose
 * inventory limits moved with them (requoteExposed).
 */
export function afterFees(core: EngineCore): void {
  const { feeTokens, positions, tokens } = core;
  if (feeTokens.size === 0) return;
  const touched = [...feeTokens].filter((t) => tokens.get(t) !== undefined);
  feeTokens.clear();
  if (touched.length === 0) return;
  const before = grossMark(core);
  for (const t of touched) positions.refresh(t);
  const pnlMicro = positions.pnlMicro;
  core.log.info({ tokens: touched, pnlMicro: pnlMicro.toString() }, "fees settled");
  observePnl(core);
  requoteExposed(core, touched, before);
}

/** The wallet's gross and worst-case gross before positions move (requoteExposed). */
export interface GrossMark {
  readonly grossMicro: bigint;
  readonly worstMicro: bigint;
}

/** Takes the wallet's figures before a change of positions. */
export function grossMark(core: EngineCore): GrossMark {
  return { grossMicro: core.positions.totalGrossMicro, worstMicro: core.positions.totalWorstMicro() };
}

/**
 * Requotes the tokens whose inventory limits moved when the positions of `touched` changed (a fill,
 * a fee paid in shares, a correction; PositionBook.refresh done): the caps are on grosses, so a
 * change on one token moves the limits of others (inventory-caps.ts).
 * - Every token of each touched token's market: the market gross moved (its soft switch, its
 *   hard room).
 * - Every token of the wallet when the wallet's soft switch flipped (total gross crossed
 *   total.soft: reduce-only starts or ends for all), or when the wallet's worst case grew: the
 *   others' hard room shrank under what they rest. A fill never grows it (it moves size from an
 *   order's remainder into the position), except in appearance when it comes before its order's id
 *   is known (counted in both until then); a share fee or a correction can.
 * Otherwise the tokens of other markets keep limits at least as wide as they had: their orders
 * still fit, and their own next step takes any room freed.
 */
export function requoteExposed(core: EngineCore, touched: Iterable<string>, before: GrossMark): void {
  const { positions, tokens } = core;
  const soft = core.risk.config.inventory.total.softMicro;
  const flipped = before.grossMicro >= soft !== positions.totalGrossMicro >= soft;
  if (flipped || positions.totalWorstMicro() > before.worstMicro) {
    core.requoteAll();
    return;
  }
  for (const t of touched) {
    const marketId = tokens.get(t)?.market.marketId;
    if (marketId === undefined) continue;
    for (const s of tokens.tokensOf(marketId)) core.requote(s);
  }
}
