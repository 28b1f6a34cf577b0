import type { Fill } from "../../../src/core/trading.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import { applyTrade } from "../../../src/execution/inventory-math.js";
import type { JournalToken } from "../../../src/journal/writer.js";
import { FakeSource } from "./support.js";

/**
 * The engine as the recorder reads it, its accounts moved by the fills the mix emits (so account
 * rows carry realistic figures), marks fixed per token.
 */
export class MixEngine extends FakeSource {
  constructor() {
    super(400);
  }
  /** Applies a fill; the token's mark becomes its price (snapshots then have marks that move). */
  apply(f: Fill): void {
    this.accs.set(f.tokenId, applyTrade(this.account(f.tokenId), f.side, f.priceMicro, f.sizeMicro));
    this.marks.set(f.tokenId, f.priceMicro);
  }
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0").slice(-width);
/** A UUID-shaped id (the exchange's order and trade ids, the markets' ids), distinct per `n`. */
const uuid = (kind: number, n: number) =>
  `${hex(kind, 8)}-${hex(n >>> 16, 4)}-7${hex(n, 3)}-8${hex(n * 7, 3)}-${hex(n * 2654435761, 12)}`;
/** A 77-digit decimal token id, as the exchange's ERC-1155 ids are. */
const tokenIdOf = (i: number) => `1${String(i).padStart(6, "0")}${"4821957364".repeat(7)}`;

/** The quoted tokens of `markets` binary markets (two tokens each), as the daemon registers them. */
export function mixTokens(markets: number): JournalToken[] {
  const out: JournalToken[] = [];
  for (let m = 0; m < markets; m++) {
    for (const outcome of ["YES", "NO"]) {
      out.push({
        tokenId: tokenIdOf(2 * m + (outcome === "YES" ? 0 : 1)),
        marketId: uuid(0x9a7b0c1d, m),
        slug: `market-${m}`,
        outcome,
      });
    }
  }
  return out;
}

/**
 * Per 100 placements written to the exchange, what the soak (100 markets, flow on) makes the engine
 * report, as measured on a 5-minute run (notes-helpers/fix5-journal.md): ~19.5 intents the queue
 * dropped unsent and ~10.7 cancels that needed no request per placement sent. Each placement then
 * ends as there: 59 cancelled (6 of them after a partial fill), 15 covered by a cancel-all, 26 filled
 * completely (18 of those after a cancel that failed), so 32 fills and 92 cancels sent.
 */
const PER_100 = {
  droppedCancelledUnsent: 1070,
  droppedShed: 860,
  droppedCancelAll: 14,
  cancelNotSent: 1070,
} as const;

/** What becomes of placement `i` (by its place in each block of 100). */
function fateOf(i: number): { cancel?: "done" | "covered"; failedCancel: boolean; filledMicro: bigint } {
  const k = i % 100;
  if (k < 59) return { cancel: "done", failedCancel: false, filledMicro: k < 6 ? 5_000_000n : 0n };
  if (k < 74) return { cancel: "covered", failedCancel: false, filledMicro: 0n };
  return { failedCancel: k < 92, filledMicro: 10_000_000n };
}

/**
 * Feeds `placements` placements' worth of the soak's event mix into `onEvent`, one placement every
 * `spacingMs` from `startMs`, over `markets` markets; `engine` applies the fills before they are
 * reported (the recorder reads the account after a fill). Deterministic. Returns the next id seed
 * so consecutive calls never reuse a clientOrderId, orderId or tradeId.
 */
export function feedSoakMix(
  onEvent: (e: EngineEvent) => void,
  engine: MixEngine,
  o: { placements: number; startMs: number; spacingMs: number; markets: number; seed?: number },
): number {
  const tokens = mixTokens(o.markets);
  let seq = o.seed ?? 1;
  const every = (per100: number, i: number) =>
    Math.floor(((i + 1) * per100) / 100) - Math.floor((i * per100) / 100);
  for (let i = 0; i < o.placements; i++) {
    const at = o.startMs + i * o.spacingMs;
    const t = tokens[(i * 37) % tokens.length] as JournalToken;
    // Each token is picked every 200 placements: alternate its side from one round to the next, so
    // positions open and close (realised PnL) as a market maker's do.
    const side = (i + Math.floor(i / tokens.length)) % 2 === 0 ? "buy" : "sell";
    const intentOf = (n: number): PlaceIntent => ({
      kind: "place",
      tokenId: t.tokenId,
      marketId: t.marketId,
      clientOrderId: `mm-ih3w2q4k-${hex(n * 40503, 10)}-${side[0]}${n % 2}-${1795268149000000 + n}`,
      quote: { side, level: n % 2, priceMicro: 100_000 + (n % 80) * 10_000, sizeMicro: 10_000_000n },
      urgencyTicks: 1,
    });
    const drops: [number, "cancelled_unsent" | "shed" | "cancel_all"][] = [
      [every(PER_100.droppedCancelledUnsent, i), "cancelled_unsent"],
      [every(PER_100.droppedShed, i), "shed"],
      [every(PER_100.droppedCancelAll, i), "cancel_all"],
    ];
    for (const [n, reason] of drops) {
      for (let k = 0; k < n; k++)
        onEvent({ type: "place_dropped", atMs: at, intent: intentOf(seq++), reason });
    }
    for (let k = every(PER_100.cancelNotSent, i); k > 0; k--) {
      onEvent({
        type: "cancel_outcome",
        atMs: at,
        clientOrderId: intentOf(seq++).clientOrderId,
        outcome: "not_sent",
        reason: "superseded",
      });
    }
    const n = seq++;
    const intent = intentOf(n);
    const { side: s, level, priceMicro, sizeMicro } = intent.quote;
    onEvent({
      type: "place_sent",
      atMs: at,
      tokenId: t.tokenId,
      clientOrderId: intent.clientOrderId,
      order: { marketId: t.marketId, side: s, level, priceMicro, sizeMicro },
    });
    const orderId = uuid(0x0017b405, n);
    onEvent({
      type: "place_outcome",
      atMs: at + 3,
      intent,
      outcome: "accepted",
      code: undefined,
      latencyMs: 3,
      orderId,
    });
    const fate = fateOf(i);
    if (fate.failedCancel) {
      onEvent({
        type: "cancel_outcome",
        atMs: at + 5,
        clientOrderId: intent.clientOrderId,
        outcome: "failed",
        reason: "requote",
      });
    }
    if (fate.filledMicro > 0n) {
      const f: Fill = {
        tradeId: uuid(0x0017b406, n),
        orderId,
        clientOrderId: intent.clientOrderId,
        tokenId: t.tokenId,
        side: s,
        priceMicro,
        sizeMicro: fate.filledMicro,
        tsMs: at + 10,
      };
      engine.apply(f);
      onEvent({ type: "fill", atMs: at + 10, fill: f, source: "stream", positionMicro: 0n, pnlMicro: 0n });
      onEvent({ type: "fee", atMs: at + 20, fill: f, fee: { asset: "usdc", amountMicro: 0n } });
    }
    if (fate.cancel !== undefined) {
      onEvent({
        type: "cancel_outcome",
        atMs: at + 30,
        clientOrderId: intent.clientOrderId,
        outcome: fate.cancel,
        reason: "requote",
      });
    }
  }
  return seq;
}
