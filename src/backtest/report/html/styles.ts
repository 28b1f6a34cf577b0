/** The report's inline stylesheet: system fonts only (no web fonts), print-friendly, no url(). */
export const REPORT_CSS = `
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #ffffff; --panel: #f6f8fa;
  --equity: #0969da; --mid: #59636e; --bid: #1a7f37; --ask: #cf222e; --inventory: #8250df; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1040px; padding: 24px 20px 48px; color: var(--fg); background: var(--bg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 8px; padding-top: 8px; border-top: 1px solid var(--line); }
h3 { font-size: 15px; margin: 20px 0 6px; }
p.meta, p.note { color: var(--muted); margin: 4px 0; }
p.warn { color: #7d4e00; background: #fff8c5; border: 1px solid #d4a72c; padding: 6px 10px; margin: 8px 0; }
code, .num { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
nav ul { list-style: none; padding: 0; margin: 8px 0; display: flex; flex-wrap: wrap; gap: 6px 16px; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num { text-align: right; white-space: nowrap; }
.grid2 { display: flex; flex-wrap: wrap; gap: 0 28px; align-items: flex-start; }
figure.chart { margin: 10px 0 18px; }
figure.chart figcaption { font-weight: 600; margin-bottom: 2px; }
figure.chart svg { display: block; width: 100%; height: auto; background: var(--bg); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; color: var(--muted); font-size: 12.5px; margin-top: 2px; }
.swatch { display: inline-block; width: 14px; height: 3px; vertical-align: middle; margin-right: 4px; }
.swatch.equity { background: var(--equity); } .swatch.mid { background: var(--mid); }
.swatch.bid { background: var(--bid); } .swatch.ask { background: var(--ask); }
.swatch.inventory { background: var(--inventory); }
.axes text { font-size: 11px; fill: var(--muted); }
.axes .ylabel { font-size: 11.5px; }
.axes .grid { stroke: var(--line); stroke-width: 0.6; }
.axes .zero { stroke: var(--muted); stroke-width: 0.8; stroke-dasharray: 3 3; }
.axes .axis, .axes .tick { stroke: var(--muted); stroke-width: 1; }
path.line { fill: none; stroke-width: 1.5; stroke-linejoin: round; }
path.range { fill: none; stroke-width: 1; opacity: 0.35; }
path.equity { stroke: var(--equity); } path.mid { stroke: var(--mid); stroke-dasharray: 4 2; }
path.bid { stroke: var(--bid); } path.ask { stroke: var(--ask); } path.inventory { stroke: var(--inventory); }
path.fill { stroke-width: 1; opacity: 0.7; }
path.fill.buy { stroke: var(--bid); fill: var(--bid); } path.fill.sell { stroke: var(--ask); fill: var(--ask); }
path.fill.taker { fill: var(--bg); }
details { margin-top: 24px; } details pre { background: var(--panel); padding: 10px; overflow: auto; max-height: 480px; }
@media print { body { max-width: none; } details { display: none; } }
`;
