import type { AcrossJson } from "../../synthetic/across-paths.js";
import { clampNote, type SyntheticSummary } from "../../synthetic/run-synthetic.js";
import type { RunSummary } from "../summary.js";
import { escapeHtml } from "./escape.js";

/** A table cell: text, or a number/decimal string (right-aligned, monospace). */
export type Cell = string | { readonly num: string | number | null };

/**
 * An HTML table, every cell escaped. `{ num }` cells are right-aligned figures (null → "–").
 * @example table(["Metric", "Value"], [["Fills", { num: 12 }]])
 */
export function table(headers: readonly string[], rows: readonly (readonly Cell[])[], cls = ""): string {
  const head = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const body = rows
    .map(
      (r) =>
        `<tr>${r.map((c) => (typeof c === "string" ? `<td>${escapeHtml(c)}</td>` : numCell(c.num))).join("")}</tr>`,
    )
    .join("\n");
  return `<table${cls === "" ? "" : ` class="${escapeHtml(cls)}"`}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function numCell(v: string | number | null): string {
  return `<td class="num">${v === null ? "–" : escapeHtml(String(v))}</td>`;
}

const n = (v: string | number | null): Cell => ({ num: v });

/** A fraction as a percentage with two decimals ("97.52 %"); null stays null. */
export function percent(x: number | null): string | null {
  return x === null ? null : `${(x * 100).toFixed(2)} %`;
}

/**
 * The headline figures of one run (a replay, or one synthetic path) as the JSON summary states
 * them: PnL, fees, fills and volume, max drawdown, Sharpe, quote uptime, orders; then the markouts
 * per horizon. Exact decimal strings are shown as they are (USDC and shares).
 */
export function headlineTables(s: RunSummary): string {
  const f = s.fills;
  const main = table(
    ["Figure", "Value", "Detail"],
    [
      ["PnL total (USDC)", n(s.pnl.total), "cash + positions at the mark"],
      ["PnL realised (USDC)", n(s.pnl.realised), "average cost, net of fees"],
      ["PnL unrealised (USDC)", n(s.pnl.unrealised), "open positions at the mark"],
      ["Cash flow (USDC)", n(s.pnl.cash), ""],
      ["Fees (USDC value)", n(s.fees.value), `${s.fees.usdc} USDC + ${s.fees.shares} shares`],
      ["Fills", n(f.count), `maker ${f.maker.count}, taker ${f.taker.count}`],
      ["Maker volume (shares)", n(f.maker.volume), `${f.maker.notional} USDC`],
      ["Taker volume (shares)", n(f.taker.volume), `${f.taker.notional} USDC`],
      ["Max drawdown (USDC)", n(s.drawdown.max), "of total PnL, over every event and fill"],
      [
        "Sharpe (per interval)",
        n(s.sharpe.perInterval),
        `${s.sharpe.intervalMs / 1000} s PnL increments, ${s.sharpe.samples} samples`,
      ],
      ["Sharpe (annualised)", n(s.sharpe.annualised), ""],
      ["Quote uptime", n(percent(s.quoteUptime)), "both sides resting, mean over tokens"],
      [
        "Orders placed",
        n(s.orders.placed),
        `rejected ${s.orders.rejected}, cancels ${s.orders.cancels}, cancel-alls ${s.orders.cancelAlls}`,
      ],
    ],
    "headline",
  );
  const markouts = table(
    ["Markout horizon", "Fills", "Unresolved", "Per share (USDC)", "Total (USDC)"],
    s.markouts.map((m) => [
      `${m.horizonMs / 1000} s`,
      n(m.fills),
      n(m.unresolved),
      n(m.perShare),
      n(m.total),
    ]),
    "markouts",
  );
  return `<div class="grid2"><div>${main}</div><div><h3>Markouts</h3>${markouts}</div></div>`;
}

/** Per-token figures of one run: position, mark, PnL, inventory, quote uptime. */
export function tokenTable(s: RunSummary): string {
  const inv = new Map(s.inventory.map((i) => [i.tokenId, i]));
  return table(
    [
      "Token",
      "Outcome",
      "Position",
      "Mark",
      "PnL total",
      "Realised",
      "Unrealised",
      "Mean inv.",
      "Max |inv.|",
      "Uptime",
    ],
    s.tokens.map((t) => [
      shortId(t.tokenId),
      t.outcome,
      n(t.position),
      n(t.mark),
      n(t.pnl.total),
      n(t.pnl.realised),
      n(t.pnl.unrealised),
      n(inv.get(t.tokenId)?.mean ?? null),
      n(inv.get(t.tokenId)?.maxAbs ?? null),
      n(percent(t.quoteUptime)),
    ]),
    "tokens",
  );
}

/**
 * The synthetic run's figures across its Monte-Carlo paths: every one the JSON summary states
 * (its top-level PnL, final inventory and fills, and each of `acrossPaths`), with the number of
 * paths that have it (a short path has no Sharpe, a path without a resolved fill no markout per
 * share; a markout's fill counts, summed over the paths, are in its label). The headline tables of the report are one path's, so this is where the run's are.
 */
export function acrossPathsTable(s: SyntheticSummary): string {
  const x = s.acrossPaths;
  const all = (v: { mean: string | null; std: string | null }): Cell[] => [n(s.paths), n(v.mean), n(v.std)];
  const some = (v: AcrossJson): Cell[] => [n(v.paths), n(v.mean), n(v.std)];
  const rows: Cell[][] = [
    ["PnL total (USDC)", ...all(s.pnl)],
    ["PnL realised (USDC)", ...some(x.realised)],
    ["PnL unrealised (USDC)", ...some(x.unrealised)],
    ["Fees (USDC value)", ...some(x.fees)],
    ["Fills", ...all(s.fills)],
    ["Maker volume (shares)", ...some(x.makerVolume)],
    ["Taker volume (shares)", ...some(x.takerVolume)],
    ["Final inventory (shares)", ...all(s.finalInventory)],
    ["Mean inventory (shares)", ...some(x.inventory.mean)],
    ["Max |inventory| (shares)", ...some(x.inventory.maxAbs)],
    ["Max drawdown (USDC)", ...some(x.maxDrawdown)],
    ["Sharpe (annualised)", ...some(x.sharpe)],
    ["Quote uptime (fraction)", ...some(x.quoteUptime)],
  ];
  for (const m of x.markouts) {
    // The counts are sums over the paths, no mean: they go with the label, as the replay's table
    // shows them beside its markouts.
    const counts = `${m.fills} fills, ${m.unresolved} unresolved over all paths`;
    rows.push([`Markout ${m.horizonMs / 1000} s per share (USDC; ${counts})`, ...some(m.perShare)]);
    rows.push([`Markout ${m.horizonMs / 1000} s total (USDC)`, ...some(m.total)]);
  }
  return table(["Across paths", "Paths", "Mean", "Std. dev."], rows, "paths");
}

/**
 * The warning of an unbounded run whose mid left what the book can show (`process.clamped`), as a
 * paragraph for the summary section; "" when it never did (or the run was bounded). It sits above
 * the figures because every figure below it was measured against the edge price on those steps.
 */
export function clampedWarningHtml(s: SyntheticSummary): string {
  const note = clampNote(s);
  if (note === undefined) return "";
  return `<p class="warn" role="alert">Warning: ${escapeHtml(note)}.</p>`;
}

/** A replay summary's `data.gaps` (src/backtest/replay/data-gaps.ts). */
export interface GapsJson {
  readonly thresholdMs: number;
  readonly count: number;
  readonly totalMs: number;
  readonly longest: readonly { readonly from: string; readonly to: string; readonly ms: number }[];
}

/**
 * The data's gaps, longest first (the summary keeps the few longest): from, to, length; `length`
 * spells a duration for people. Empty when the data has none.
 */
export function gapsTable(g: GapsJson, length: (ms: number) => string): string {
  if (g.longest.length === 0) return "";
  return table(
    ["Silent from", "to", "Length", "ms"],
    g.longest.map((x) => [x.from, x.to, length(x.ms), n(x.ms)]),
    "gaps",
  );
}

/** A long token id shortened for tables and headings ("191320…197703"). */
export function shortId(id: string): string {
  return id.length <= 16 ? id : `${id.slice(0, 6)}…${id.slice(-6)}`;
}
