import type { TokenMarket } from "../../core/trading.js";
import type { RequestCounts } from "../sim/venue-exchange.js";
import { ratio, rounded, units } from "./decimal.js";
import type { RunFigures } from "./recorder.js";

/** Figures of one simulation as the JSON summary spells them (see buildRunSummary). */
export type RunSummary = ReturnType<typeof buildRunSummary>;

/**
 * The JSON summary of one simulated run. Money and sizes are exact decimal strings (USDC and
 * shares; PnL can carry up to 12 decimals because average cost is kept in pico-USDC); statistics
 * (Sharpe, uptime) are numbers rounded to 6 decimals. Keys come out in this fixed order and maps
 * are emitted sorted, so the same run gives byte-identical JSON.
 *
 * - pnl.total = cash + Σ position × mark; realised (average cost, net of fees) + unrealised = total;
 *   positions are relative to the wallet at the start; marks are the live engine's (core/mark.ts):
 *   the exchange's last uncrossed two-sided mid, bounded by the side left of a one-sided book (a
 *   token whose book was never two-sided: also its fills' prices);
 * - fees: USDC fees, share fees (BUY side) and their value at the fill prices;
 * - drawdown.max: largest fall of total PnL from a running peak over every market event and fill;
 * - sharpe: see EquityCurve; quoteUptime: mean over tokens of the time both sides rested;
 * - markouts: per horizon, perShare = Σ sign·(mid(t+h) − p)·q / Σ q (6 decimals), total = Σ value;
 *   unresolved = fills whose t + h is past the end (but those of a resolved market: at the payout).
 */
export function buildRunSummary(f: RunFigures, tokens: readonly TokenMarket[], orders: RequestCounts) {
  const a = f.accountant;
  let realised = 0n;
  let unrealised2 = 0n;
  const perToken = tokens.map((t) => {
    const l = a.tokens.get(t.tokenId) ?? { q: 0n, cost: 0n, realised: 0n, cash: 0n };
    const mark2 = f.marks2.get(t.tokenId);
    const u2 = l.q * (mark2 ?? 0n) - 2n * l.cost;
    realised += l.realised;
    unrealised2 += u2;
    const inv = f.inventory.get(t.tokenId);
    const duration = BigInt(inv?.durationMs ?? 0);
    return {
      tokenId: t.tokenId,
      marketId: t.marketId,
      outcome: t.outcome,
      mark: mark2 === undefined ? null : half(mark2, 6),
      position: units(l.q, 6),
      pnl: {
        total: half(2n * l.realised + u2, 12),
        realised: units(l.realised, 12),
        unrealised: half(u2, 12),
      },
      inventory: {
        final: units(inv?.final ?? 0n, 6),
        mean: duration === 0n ? "0" : (ratio(inv?.weighted ?? 0n, duration * 1_000_000n, 6) as string),
        maxAbs: units(inv?.maxAbs ?? 0n, 6),
      },
      quoteUptime: rounded(f.uptime.get(t.tokenId) ?? 0),
    };
  });
  const uptimes = perToken.map((t) => t.quoteUptime ?? 0);
  const sharpe = f.sharpe;
  return {
    window: {
      start: new Date(f.startMs).toISOString(),
      end: new Date(f.endMs).toISOString(),
      durationMs: f.endMs - f.startMs,
    },
    pnl: {
      total: half(2n * realised + unrealised2, 12),
      realised: units(realised, 12),
      unrealised: half(unrealised2, 12),
      cash: units(a.cash, 6),
    },
    fees: {
      usdc: units(a.fees.usdc, 6),
      shares: units(a.fees.shares, 6),
      value: units(a.fees.valuePico, 12),
    },
    fills: {
      count: a.maker.count + a.taker.count,
      maker: volume(a.maker),
      taker: volume(a.taker),
    },
    inventory: perToken.map((t) => ({ tokenId: t.tokenId, ...t.inventory })),
    drawdown: { max: half(f.maxDrawdown2, 12) },
    sharpe: {
      intervalMs: sharpe.intervalMs,
      samples: sharpe.samples,
      perInterval: rounded(sharpe.perInterval),
      annualised: rounded(sharpe.annualised),
    },
    quoteUptime: rounded(uptimes.length === 0 ? 0 : uptimes.reduce((x, y) => x + y, 0) / uptimes.length),
    markouts: f.markouts.map((m) => ({
      horizonMs: m.horizonMs,
      fills: m.fills,
      unresolved: m.unresolved,
      perShare: ratio(m.value2, 2n * m.quantity * 1_000_000n, 6),
      total: half(m.value2, 12),
    })),
    orders: {
      placed: orders.place,
      rejected: orders.placeRejected,
      rejectCodes: sortedCounts(orders.rejectCodes),
      cancels: orders.cancel,
      cancelsRefused: orders.cancelRejected,
      cancelAlls: orders.cancelAll,
      reads: orders.reads,
    },
    tokens: perToken,
  };
}

/** A map of counts as an object with sorted keys (deterministic JSON). */
export function sortedCounts(m: ReadonlyMap<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of [...m.keys()].sort()) out[k] = m.get(k) as number;
  return out;
}

/**
 * The summary as written to disk: 2-space JSON, bigints refused (every amount is a string by now).
 * @example writeFileSync("report.json", summaryJson(result.summary))
 */
export function summaryJson(summary: unknown): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}

function volume(v: { count: number; quantity: bigint; notional: bigint }) {
  return { count: v.count, volume: units(v.quantity, 6), notional: units(v.notional, 6) };
}

// A value kept doubled (half-units exact) back to its decimal string.
function half(value2: bigint, scale: number): string {
  return units(value2 * 5n, scale + 1);
}
