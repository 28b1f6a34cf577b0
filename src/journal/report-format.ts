import type { JournalReport, ReportFigures } from "./report.js";

/**
 * An integer in units of 10^-scale as an exact decimal string, trailing zeros dropped but at least
 * `minDecimals` kept.
 * @example scaled(-1_234_500_000_000n, 12, 2) // "-1.2345"
 */
export function scaled(value: bigint, scale: number, minDecimals: number): string {
  const neg = value < 0n;
  const digits = (neg ? -value : value).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  let frac = digits.slice(digits.length - scale).replace(/0+$/, "");
  if (frac.length < minDecimals) frac = frac.padEnd(minDecimals, "0");
  return `${neg ? "-" : ""}${whole}${frac === "" ? "" : `.${frac}`}`;
}

/** USDC from pico-USDC, exact. */
export const usdc = (pico: bigint): string => scaled(pico, 12, 2);
/** Shares from micro-shares, exact. */
export const shares = (micro: bigint): string => scaled(micro, 6, 0);

/** The report's figures as JSON-ready exact decimal strings. */
export function figuresJson(f: ReportFigures): Record<string, string | number> {
  return {
    fills: f.fills,
    volume: shares(f.volumeMicro),
    notional: usdc(f.notionalPico),
    realisedPnl: usdc(f.realisedPico),
    fees: usdc(f.feesPico),
    netPnl: usdc(f.realisedPico - f.feesPico),
    fillsWithoutFee: f.fillsWithoutFee,
  };
}

/**
 * Net PnL (realised − fees) plus the unrealised PnL of the open positions at their last journaled
 * mark, pico-USDC: what the PnL would be if they were sold at it. A position without a mark adds
 * nothing (JournalReport.unmarked says how many).
 */
export function totalPnlPico(r: JournalReport): bigint {
  return r.total.realisedPico - r.total.feesPico + r.unrealisedPico;
}

/** The report as one JSON document (amounts as exact decimal strings: USDC, shares). */
export function reportJson(r: JournalReport, journal: string): string {
  return `${JSON.stringify(
    {
      journal,
      since: r.sinceMs === undefined ? null : new Date(r.sinceMs).toISOString(),
      runs: r.runs,
      accounts: r.accounts,
      days: r.rows.map((x) => ({ day: x.day, market: x.market, marketId: x.marketId, ...figuresJson(x) })),
      markets: r.markets.map((x) => ({ market: x.market, marketId: x.marketId, ...figuresJson(x) })),
      total: {
        ...figuresJson(r.total),
        unrealisedPnl: usdc(r.unrealisedPico),
        totalPnl: usdc(totalPnlPico(r)),
        positionsWithoutMark: r.unmarked,
      },
      positions: r.positions.map((p) => ({
        account: p.account,
        market: p.market,
        outcome: p.outcome,
        tokenId: p.tokenId,
        position: shares(p.sizeMicro),
        costBasis: usdc(p.costPico),
        mark: p.markMicro === undefined ? null : scaled(BigInt(p.markMicro), 6, 2),
        unrealisedPnl: p.unrealisedPico === undefined ? null : usdc(p.unrealisedPico),
        settled: p.settled ?? null,
      })),
    },
    null,
    2,
  )}\n`;
}

const HEAD = ["day", "market", "fills", "volume", "notional", "realised PnL", "fees", "net PnL"];

/**
 * The report as text tables: one row per UTC day and market, each market over the period, the
 * total; then the open positions (each token's last journaled account) with their unrealised PnL
 * at the last journaled mark; then the total PnL.
 */
export function reportText(r: JournalReport, journal: string): string {
  const since = r.sinceMs === undefined ? "" : ` since ${new Date(r.sinceMs).toISOString()}`;
  const out = [
    `mm report: ${journal}`,
    `${r.runs} run(s)${since}; days are UTC; volume in shares, amounts in USDC, exact`,
  ];
  if (r.accounts > 1)
    out.push(`note: the journal holds ${r.accounts} accounts (exchange + wallet); figures add them up`);
  // Figures printed as exact must not pass for complete while fees are still to come.
  if (r.total.fillsWithoutFee > 0) {
    out.push(
      `note: ${r.total.fillsWithoutFee} fill(s) have no fee in the journal yet: the exchange resolves a fee after settlement,`,
      "  and the next mm run reads it. Fees, net PnL and total PnL lack theirs (a fee paid in shares: its",
      "  position too); --json gives fillsWithoutFee per day and market",
    );
  }
  out.push("");
  if (r.rows.length === 0) {
    out.push("no fills or PnL in the period");
  } else {
    const line = (day: string, market: string, f: ReportFigures) => [
      day,
      market,
      String(f.fills),
      shares(f.volumeMicro),
      usdc(f.notionalPico),
      usdc(f.realisedPico),
      usdc(f.feesPico),
      usdc(f.realisedPico - f.feesPico),
    ];
    const body = r.rows.map((x) => line(x.day, x.market, x));
    const markets = r.markets.map((m) => line("all days", m.market, m));
    out.push(...table(HEAD, [body, markets, [line("all days", "all markets", r.total)]]));
  }
  if (r.positions.length > 0) {
    out.push("", "open positions (each token's last journaled account, at its last journaled mark)");
    // With several accounts in the journal, one market's outcome can be held by each: say whose.
    const whose = r.accounts > 1;
    // A settled market's mark is its payout: that unrealised PnL will not move any more.
    const settled = r.positions.some((p) => p.settled !== undefined);
    const rows = r.positions.map((p) => [
      p.market,
      p.outcome,
      shares(p.sizeMicro),
      usdc(p.costPico),
      p.markMicro === undefined ? "-" : scaled(BigInt(p.markMicro), 6, 2),
      p.unrealisedPico === undefined ? "-" : usdc(p.unrealisedPico),
      ...(settled ? [p.settled ?? "-"] : []),
      ...(whose ? [p.account] : []),
    ]);
    const head = ["market", "outcome", "position", "cost basis", "mark", "unrealised PnL"];
    out.push(...table([...head, ...(settled ? ["settled"] : []), ...(whose ? ["account"] : [])], [rows]));
  }
  if (r.rows.length > 0 || r.positions.length > 0) out.push("", ...totalLines(r));
  return `${out.join("\n")}\n`;
}

/**
 * The total PnL block: net PnL, the open positions' unrealised PnL and their sum, so that a reader
 * need not add the two tables up. Labelled with what each part covers: under --since the net PnL is
 * the period's, while an open position's unrealised PnL runs from its cost, whenever it was bought.
 */
function totalLines(r: JournalReport): string[] {
  const label = ["net PnL (realised - fees)", "unrealised PnL", "total PnL"];
  const value = [
    usdc(r.total.realisedPico - r.total.feesPico),
    usdc(r.unrealisedPico),
    usdc(totalPnlPico(r)),
  ];
  const lw = Math.max(...label.map((l) => l.length));
  const vw = Math.max(...value.map((v) => v.length));
  const unmarked =
    r.unmarked === 0
      ? ""
      : `  (${r.unmarked} open position${r.unmarked === 1 ? "" : "s"} without a mark: not counted)`;
  const out = ["total PnL: net PnL + unrealised PnL of the open positions at their last journaled mark"];
  if (r.sinceMs !== undefined) {
    out.push(
      `  (net PnL since ${new Date(r.sinceMs).toISOString()}; unrealised PnL since each position was opened, before that too)`,
    );
  }
  label.forEach((l, i) => {
    out.push(`${l.padEnd(lw)}  ${(value[i] ?? "").padStart(vw)}${i === 1 ? unmarked : ""}`);
  });
  return out;
}

/** Columns padded to their widest cell: text left, numbers right; a rule between sections. */
function table(head: readonly string[], sections: readonly (readonly string[][])[]): string[] {
  const rows = sections.flat();
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const numeric = head.map(
    (_, i) => rows.length > 0 && rows.every((r) => /^-?\d/.test(r[i] ?? "") || r[i] === "-"),
  );
  const fmt = (r: readonly string[]) =>
    r
      .map((c, i) => (numeric[i] === true ? c.padStart(width[i] ?? 0) : c.padEnd(width[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const rule = width.map((w) => "-".repeat(w)).join("  ");
  const out = [fmt(head), rule];
  sections.forEach((s, i) => {
    if (i > 0 && s.length > 0) out.push(rule);
    out.push(...s.map(fmt));
  });
  return out;
}
