import { CHART_SCRIPT } from "./chart-script.js";
import { cspHash, escapeHtml, scriptJson } from "./escape.js";
import { REPORT_CSS } from "./styles.js";
import { shortId } from "./tables.js";
import type { TimelineData, TokenTimeline } from "./timeline.js";

/** What one report page shows. */
export interface ReportPage {
  readonly title: string;
  /** Plain-text lines under the title (kind, window, seed, strategy…). */
  readonly meta: readonly string[];
  /** Trusted HTML (from tables.ts, every value escaped there): the figures before the charts. */
  readonly summaryHtml: string;
  readonly timeline: TimelineData;
  /** "utc": clock times (a replay); "elapsed": time since the start (a synthetic path). */
  readonly timeAxis: "utc" | "elapsed";
  /** The JSON summary as `--out` writes it, shown collapsed at the end. */
  readonly summaryJson: string;
}

/** The data the chart script reads from `#mm-data`. */
export interface ChartData extends TimelineData {
  readonly timeAxis: "utc" | "elapsed";
}

/**
 * One self-contained HTML file: inline CSS, the embedded chart data (JSON, `<` escaped), and the
 * inline chart script. The Content-Security-Policy allows nothing but that one style and that one
 * script (by SHA-256) — no fetch, image, font, frame or form target of any origin — so the page
 * works offline and cannot make a request even if the data held a URL. No http(s) URL appears in
 * the file (the SVG namespace is read from the page's own elements).
 */
export function renderReportPage(page: ReportPage): string {
  const tl = page.timeline;
  const data: ChartData = { ...tl, timeAxis: page.timeAxis };
  const csp = [
    "default-src 'none'",
    `script-src ${cspHash(CHART_SCRIPT)}`,
    `style-src ${cspHash(REPORT_CSS)}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; "); // base64 hashes and keywords: nothing to escape in the attribute
  const nav = [
    `<li><a href="#summary">Summary</a></li>`,
    `<li><a href="#equity">Equity</a></li>`,
    ...tl.tokens.map((t, i) => `<li><a href="#token-${i}">${escapeHtml(tokenTitle(t))}</a></li>`),
  ].join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(page.title)}</h1>
${page.meta.map((m) => `<p class="meta">${escapeHtml(m)}</p>`).join("\n")}
<nav><ul>${nav}</ul></nav>
</header>
<section id="summary">
<h2>Summary</h2>
${page.summaryHtml}
</section>
<section id="equity">
<h2>Equity</h2>
${figure("equity", undefined, "Total PnL over time (USDC): cash + positions at the mark", [["equity", "total PnL"]])}
</section>
<section id="markets">
<h2>Markets</h2>
<p class="note">${escapeHtml(limitsNote(tl, page.timeAxis))}</p>
${tl.tokens.map((t, i) => tokenSection(t, i)).join("\n")}
</section>
<details>
<summary>JSON summary</summary>
<pre>${escapeHtml(page.summaryJson)}</pre>
</details>
<script id="mm-data" type="application/json">${scriptJson(data)}</script>
<script>${CHART_SCRIPT}</script>
</body>
</html>
`;
}

/** How a token is named in headings: market · outcome · short token id. */
export function tokenTitle(t: Pick<TokenTimeline, "marketId" | "outcome" | "tokenId">): string {
  return `${shortId(t.marketId)} · ${t.outcome} · ${shortId(t.tokenId)}`;
}

function tokenSection(t: TokenTimeline, i: number): string {
  const shown = t.fills.points.length;
  const fills =
    shown === t.fills.total
      ? `${t.fills.total} fills`
      : `${shown} of ${t.fills.total} fills shown (every ${t.fills.stride}th)`;
  return `<section class="token" id="token-${i}">
<h3>${escapeHtml(tokenTitle(t))}</h3>
<p class="note">Token <code>${escapeHtml(t.tokenId)}</code>: ${escapeHtml(fills)}, ${t.activity.quoteChanges} quote changes, ${t.activity.bookEvents} book events.</p>
${figure(
  "price",
  i,
  "Our quotes against the mark (the exchange's last uncrossed mid, within the side left of a one-sided book; before a two-sided book, fills' prices too; once resolved, the payout), fills marked (▲ buy, ▼ sell; filled = maker, hollow = taker)",
  [
    ["mid", "mark (exchange mid, bounded)"],
    ["bid", "our best bid"],
    ["ask", "our best ask"],
  ],
)}
${figure("inventory", i, "Inventory over time (shares, relative to the start)", [["inventory", "position"]])}
</section>`;
}

function figure(
  kind: string,
  token: number | undefined,
  caption: string,
  legend: [string, string][],
): string {
  const attr = token === undefined ? "" : ` data-token="${token}"`;
  const items = legend
    .map(([cls, label]) => `<span><i class="swatch ${cls}"></i>${escapeHtml(label)}</span>`)
    .join("");
  return `<figure class="chart" data-chart="${kind}"${attr}>
<figcaption>${escapeHtml(caption)}</figcaption>
<svg class="plot" role="img" aria-label="${escapeHtml(caption)}"></svg>
<div class="legend">${items}</div>
</figure>`;
}

function limitsNote(tl: TimelineData, axis: "utc" | "elapsed"): string {
  const { maxPoints, maxFills, maxTokens } = tl.limits;
  const omitted =
    tl.omittedTokens === 0
      ? `All ${tl.tokens.length} token(s) charted.`
      : `${tl.tokens.length} most active of ${tl.tokens.length + tl.omittedTokens} tokens charted (by fills, then quote changes, then book events; at most ${maxTokens}).`;
  return `${omitted} Each series keeps at most ${maxPoints} points (changes only; when longer, neighbouring time buckets merge and a faint bar shows the range a bucket spanned); at most ${maxFills} fill markers per token (evenly thinned beyond). Times: ${axis === "utc" ? "UTC" : "elapsed since the start of the path"}.`;
}
