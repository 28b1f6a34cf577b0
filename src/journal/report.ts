import type { Database } from "better-sqlite3";
import { readSettlements } from "./settlements.js";

/** Figures of one market over a period (one UTC day, or the whole report). */
export interface ReportFigures {
  fills: number;
  /** Shares traded, micro-shares. */
  volumeMicro: bigint;
  /** Σ price × size, pico-USDC. */
  notionalPico: bigint;
  /** Realised PnL before fees (average cost), pico-USDC. */
  realisedPico: bigint;
  /** Fees of the period's fills, pico-USDC (share fees at the fill's price). */
  feesPico: bigint;
  /**
   * The period's fills the journal has no fee for yet: a fee resolves after settlement, so a run's
   * last fills stop before theirs (the next start reads them). Their fees are in no figure.
   */
  fillsWithoutFee: number;
}

export interface ReportRow extends ReportFigures {
  /** UTC day, YYYY-MM-DD. */
  readonly day: string;
  readonly marketId: string;
  /** The market's slug when the journal knows it, else its id. */
  readonly market: string;
}

/** An open position: a token's last journaled account (of one exchange + wallet). */
export interface ReportPosition {
  /** The account (exchange base URL + maker wallet) the position belongs to. */
  readonly account: string;
  readonly market: string;
  readonly outcome: string;
  readonly tokenId: string;
  readonly sizeMicro: bigint;
  readonly costPico: bigint;
  readonly markMicro: number | undefined;
  /** size × mark − cost, pico-USDC; undefined without a mark. */
  readonly unrealisedPico: bigint | undefined;
  /**
   * RESOLVED or VOIDED when the account's runs journaled the market settled: its mark is then the
   * payout (or, voided, the last mark), and the figure is final, not a price that may still move.
   */
  readonly settled: string | undefined;
}

export interface JournalReport {
  readonly sinceMs: number | undefined;
  /** (day, market) rows, by day then market. */
  readonly rows: readonly ReportRow[];
  /** Per market over the whole period, by market. */
  readonly markets: readonly (ReportFigures & { readonly marketId: string; readonly market: string })[];
  readonly total: ReportFigures;
  readonly positions: readonly ReportPosition[];
  /** Σ unrealised PnL of the positions that have a mark, pico-USDC. */
  readonly unrealisedPico: bigint;
  /** Positions without a journaled mark: their unrealised PnL is unknown, so in no total. */
  readonly unmarked: number;
  readonly runs: number;
  /** Distinct accounts (exchange + wallet) in the file: figures are summed over them. */
  readonly accounts: number;
}

interface TokenInfo {
  readonly marketId: string;
  readonly market: string;
  readonly outcome: string;
}

const zero = (): ReportFigures => ({
  fills: 0,
  volumeMicro: 0n,
  notionalPico: 0n,
  realisedPico: 0n,
  feesPico: 0n,
  fillsWithoutFee: 0,
});

/**
 * PnL, fees and volume by UTC day and market from the journal, in exact integers:
 * - volume and notional: the fills stamped at or after `sinceMs`;
 * - fees: the fees of those fills (value as inventory books it);
 * - realised PnL: the steps of each token's journaled account within each run (a run's restored
 *   starting point is not counted again), dated by the fill or reconcile that moved it.
 * Positions: each token's last account per account (exchange + wallet), as a restart restores it,
 * at its last journaled mark; their unrealised PnL summed (a position without a mark counted apart), for the total PnL.
 * Runs in one read transaction, so a daemon writing meanwhile cannot tear the figures.
 * @example const r = buildReport(db, { sinceMs: Date.parse("2025-06-01") }); r.total.realisedPico
 */
export function buildReport(db: Database, opts: { sinceMs?: number } = {}): JournalReport {
  const since = opts.sinceMs ?? Number.MIN_SAFE_INTEGER;
  return db.transaction(() => {
    const tokens = readTokens(db);
    const info = (t: string): TokenInfo =>
      tokens.get(t) ?? { marketId: `token ${t}`, market: `token ${t}`, outcome: "?" };
    const cells = new Map<string, ReportRow>();
    const cell = (day: string, t: string): ReportFigures => {
      const { marketId, market } = info(t);
      const key = `${day}\u0000${marketId}`;
      let c = cells.get(key);
      if (c === undefined) {
        c = { day, marketId, market, ...zero() };
        cells.set(key, c);
      }
      return c;
    };
    // A fill without a fee row has no known fee (a zero fee is journaled as one), see restore's feePending.
    const fills = db.prepare(
      `SELECT f.token_id, f.price_micro, f.size_micro, f.ts_ms,
         EXISTS (SELECT 1 FROM fees e WHERE e.trade_id = f.trade_id AND e.order_id = f.order_id) AS has_fee
       FROM fills f WHERE f.ts_ms >= ? ORDER BY f.id`,
    );
    for (const f of fills.iterate(since) as Iterable<{
      token_id: string;
      price_micro: bigint;
      size_micro: bigint;
      ts_ms: bigint;
      has_fee: bigint | number;
    }>) {
      const c = cell(dayOf(f.ts_ms), f.token_id);
      c.fills++;
      c.volumeMicro += f.size_micro;
      c.notionalPico += f.price_micro * f.size_micro;
      if (Number(f.has_fee) === 0) c.fillsWithoutFee++;
    }
    const fees = db.prepare("SELECT token_id, value_pico, fill_ts_ms FROM fees WHERE fill_ts_ms >= ?");
    for (const f of fees.iterate(since) as Iterable<{
      token_id: string;
      value_pico: string;
      fill_ts_ms: bigint;
    }>) {
      cell(dayOf(f.fill_ts_ms), f.token_id).feesPico += BigInt(f.value_pico);
    }
    const steps = db.prepare(
      "SELECT run_id, token_id, reason, at_ms, realised_pico FROM accounts ORDER BY run_id, token_id, id",
    );
    let group = "";
    let prev = 0n;
    for (const a of steps.iterate() as Iterable<{
      run_id: bigint;
      token_id: string;
      reason: string;
      at_ms: bigint;
      realised_pico: string;
    }>) {
      const realised = BigInt(a.realised_pico);
      const g = `${a.run_id}\u0000${a.token_id}`;
      if (g !== group) {
        group = g;
        prev = 0n;
        // A run's restored account is where it started, not something it realised.
        if (a.reason === "restore") {
          prev = realised;
          continue;
        }
      }
      const delta = realised - prev;
      prev = realised;
      if (delta !== 0n && Number(a.at_ms) >= since) cell(dayOf(a.at_ms), a.token_id).realisedPico += delta;
    }
    const rows = [...cells.values()].sort((x, y) => cmp(x.day, y.day) || cmp(x.market, y.market));
    const byMarket = new Map<string, ReportFigures & { marketId: string; market: string }>();
    const total = zero();
    for (const r of rows) {
      let m = byMarket.get(r.marketId);
      if (m === undefined) {
        m = { marketId: r.marketId, market: r.market, ...zero() };
        byMarket.set(r.marketId, m);
      }
      add(m, r);
      add(total, r);
    }
    const counts = db
      .prepare("SELECT count(*) AS runs, count(DISTINCT account) AS accounts FROM runs")
      .get() as {
      runs: bigint;
      accounts: bigint;
    };
    const positions = readPositions(db, info);
    return {
      sinceMs: opts.sinceMs,
      rows,
      markets: [...byMarket.values()].sort((x, y) => cmp(x.market, y.market)),
      total,
      positions,
      unrealisedPico: positions.reduce((sum, p) => sum + (p.unrealisedPico ?? 0n), 0n),
      unmarked: positions.filter((p) => p.unrealisedPico === undefined).length,
      runs: Number(counts.runs),
      accounts: Number(counts.accounts),
    };
  })();
}

function readTokens(db: Database): Map<string, TokenInfo> {
  const rows = db.prepare("SELECT token_id, market_id, slug, outcome FROM tokens").all() as {
    token_id: string;
    market_id: string;
    slug: string | null;
    outcome: string;
  }[];
  return new Map(
    rows.map((r) => [
      r.token_id,
      { marketId: r.market_id, market: r.slug ?? r.market_id, outcome: r.outcome },
    ]),
  );
}

function readPositions(db: Database, info: (t: string) => TokenInfo): ReportPosition[] {
  // Each token's last account per account (exchange + wallet), as a restart restores it: a token the
  // last run did not trade keeps the position an earlier run left. Its mark is the last one journaled
  // for it (a row may carry none: a restore row without a journaled mark, an untraded token's fill).
  const rows = db
    .prepare(
      `SELECT r.account, a.token_id, a.size_micro, a.cost_pico, a.mark_micro
       FROM accounts a JOIN runs r ON r.run_id = a.run_id ORDER BY a.id`,
    )
    .iterate() as Iterable<{
    account: string;
    token_id: string;
    size_micro: bigint;
    cost_pico: string;
    mark_micro: bigint | null;
  }>;
  const last = new Map<
    string,
    { account: string; tokenId: string; sizeMicro: bigint; cost: string; mark: bigint | null }
  >();
  for (const r of rows) {
    const key = `${r.account}\u0000${r.token_id}`;
    const mark = r.mark_micro ?? last.get(key)?.mark ?? null;
    last.set(key, {
      account: r.account,
      tokenId: r.token_id,
      sizeMicro: r.size_micro,
      cost: r.cost_pico,
      mark,
    });
  }
  const settledOf = settledMarkets(db);
  const out: ReportPosition[] = [];
  for (const r of last.values()) {
    if (r.sizeMicro === 0n) continue;
    const cost = BigInt(r.cost);
    const mark = r.mark === null ? undefined : Number(r.mark);
    const t = info(r.tokenId);
    out.push({
      account: r.account,
      market: t.market,
      outcome: t.outcome,
      tokenId: r.tokenId,
      sizeMicro: r.sizeMicro,
      costPico: cost,
      markMicro: mark,
      unrealisedPico: mark === undefined ? undefined : r.sizeMicro * BigInt(mark) - cost,
      settled: settledOf(r.account, t.marketId),
    });
  }
  return out.sort(
    (x, y) => cmp(x.market, y.market) || cmp(x.outcome, y.outcome) || cmp(x.account, y.account),
  );
}

function add(into: ReportFigures, f: ReportFigures): void {
  into.fills += f.fills;
  into.volumeMicro += f.volumeMicro;
  into.notionalPico += f.notionalPico;
  into.realisedPico += f.realisedPico;
  into.feesPico += f.feesPico;
  into.fillsWithoutFee += f.fillsWithoutFee;
}

/** The UTC day of an epoch-ms time, YYYY-MM-DD. */
export function dayOf(ms: bigint | number): string {
  return new Date(Number(ms)).toISOString().slice(0, 10);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The status each account's runs journaled for a settled market (readSettlements), by account. */
function settledMarkets(db: Database): (account: string, marketId: string) => string | undefined {
  const byAccount = new Map<string, Map<string, string>>();
  return (account, marketId) => {
    let markets = byAccount.get(account);
    if (markets === undefined) {
      markets = new Map(readSettlements(db, account).map((x) => [x.marketId, x.status]));
      byAccount.set(account, markets);
    }
    return markets.get(marketId);
  };
}
