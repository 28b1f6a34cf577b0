/**
 * The report's inline chart script (browser JavaScript, run once on load; the page's CSP admits it
 * by hash). It reads the embedded data (`#mm-data`), and fills each `<figure data-chart>` —
 * "equity", "price" and "inventory" (per token, `data-token` = index into data.tokens) — into the
 * empty `<svg>` it holds: axes with time and value ticks, a step line per series (a vertical bar
 * per bucket where downsampling merged different values), fill markers on the price chart (▲ buy,
 * ▼ sell; filled = maker, hollow = taker; a `<title>` each). The SVG namespace is read from the
 * page's own `<svg>` so the file holds no URL at all. Each figure gets `data-drawn="true"`, each
 * line `data-points` (points drawn); `<body data-charts-drawn=N>` when done — what the headless
 * Chromium test checks. A plain template literal: keep backticks, dollar-brace and backslashes out.
 */
export const CHART_SCRIPT = `(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("mm-data").textContent);
  var W = 960, H = 260, L = 72, R = 16, T = 12, B = 30;
  var span = Math.max(1, data.endMs - data.startMs);
  var MIN = 60000, HOUR = 3600000, DAY = 86400000;
  var TIME_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000,
    MIN, 2 * MIN, 5 * MIN, 10 * MIN, 15 * MIN, 30 * MIN, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR,
    12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 90 * DAY, 365 * DAY];

  function el(svg, tag, attrs, parent) {
    var e = document.createElementNS(svg.namespaceURI, tag);
    for (var k in attrs) e.setAttribute(k, String(attrs[k]));
    (parent || svg).appendChild(e);
    return e;
  }
  function pad2(n) { return (n < 10 ? "0" : "") + n; }
  function fmtTime(rel, step) {
    if (data.timeAxis === "elapsed") return fmtDuration(rel, step);
    var d = new Date(data.startMs + rel);
    var hm = pad2(d.getUTCHours()) + ":" + pad2(d.getUTCMinutes());
    if (span >= 2 * DAY) return pad2(d.getUTCMonth() + 1) + "-" + pad2(d.getUTCDate()) + " " + hm;
    if (step < MIN) return hm + ":" + pad2(d.getUTCSeconds()) + (step < 1000 ? "." + String(d.getUTCMilliseconds()).padStart(3, "0") : "");
    return hm;
  }
  function fmtDuration(ms, step) {
    if (ms === 0) return "0";
    if (step < 1000) return (ms / 1000).toFixed(step < 10 ? 3 : step < 100 ? 2 : 1) + "s";
    var s = Math.round(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600);
    var m = Math.floor(s % 3600 / 60), sec = s % 60, out = [];
    if (d) out.push(d + "d");
    if (h) out.push(h + "h");
    if (m) out.push(m + "m");
    if (sec) out.push(sec + "s");
    return out.join(" ");
  }
  function timeTicks() {
    var step = TIME_STEPS[TIME_STEPS.length - 1];
    for (var i = 0; i < TIME_STEPS.length; i++) if (span / TIME_STEPS[i] <= 8) { step = TIME_STEPS[i]; break; }
    // UTC ticks fall on whole multiples of the step in epoch time; elapsed ticks on multiples from 0.
    var origin = data.timeAxis === "elapsed" ? 0 : data.startMs;
    var first = Math.ceil(origin / step) * step - origin, out = [];
    for (var t = first; t <= span; t += step) out.push(t);
    return { step: step, ticks: out };
  }
  function niceStep(range, n) {
    var raw = range / n, mag = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
  }
  function decimalsOf(step) {
    for (var d = 0; d < 9; d++) if (Math.abs(Math.round(step * Math.pow(10, d)) - step * Math.pow(10, d)) < 1e-6) return d;
    return 9;
  }
  function extent(seriesList, extra) {
    var lo = Infinity, hi = -Infinity;
    function take(v) { if (v !== null && isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; } }
    seriesList.forEach(function (s) { s.v.forEach(take); s.lo.forEach(take); s.hi.forEach(take); });
    (extra || []).forEach(take);
    if (lo === Infinity) { lo = 0; hi = 1; }
    if (hi - lo < 1e-9) { var w = Math.abs(hi) < 1e-9 ? 1 : Math.abs(hi) * 0.01; lo -= w; hi += w; }
    var p = (hi - lo) * 0.06;
    return [lo - p, hi + p];
  }
  function frame(svg, yDom, yLabel) {
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    var x = function (t) { return L + (W - L - R) * t / span; };
    var y = function (v) { return T + (H - T - B) * (1 - (v - yDom[0]) / (yDom[1] - yDom[0])); };
    var axes = el(svg, "g", { "class": "axes" });
    var step = niceStep(yDom[1] - yDom[0], 5), dec = decimalsOf(step);
    for (var k = Math.ceil(yDom[0] / step); k * step <= yDom[1]; k++) {
      var v = k * step;
      el(svg, "line", { x1: L, x2: W - R, y1: y(v), y2: y(v), "class": k === 0 ? "zero" : "grid" }, axes);
      el(svg, "text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, axes).textContent = (k === 0 ? 0 : v).toFixed(dec);
    }
    var tt = timeTicks();
    tt.ticks.forEach(function (t) {
      el(svg, "line", { x1: x(t), x2: x(t), y1: H - B, y2: H - B + 4, "class": "tick" }, axes);
      el(svg, "text", { x: x(t), y: H - B + 17, "text-anchor": "middle" }, axes).textContent = fmtTime(t, tt.step);
    });
    el(svg, "line", { x1: L, x2: W - R, y1: H - B, y2: H - B, "class": "axis" }, axes);
    el(svg, "line", { x1: L, x2: L, y1: T, y2: H - B, "class": "axis" }, axes);
    el(svg, "text", { x: 14, y: T + (H - T - B) / 2, "text-anchor": "middle", "class": "ylabel",
      transform: "rotate(-90 14 " + (T + (H - T - B) / 2) + ")" }, axes).textContent = yLabel;
    return { x: x, y: y };
  }
  function stepLine(svg, s, sc, cls) {
    var d = "", points = 0, open = false, ranges = "";
    for (var i = 0; i < s.t.length; i++) {
      var v = s.v[i], px = sc.x(s.t[i]).toFixed(1);
      if (s.lo[i] !== null && s.hi[i] !== null && s.lo[i] !== s.hi[i]) {
        ranges += "M" + px + " " + sc.y(s.lo[i]).toFixed(1) + "V" + sc.y(s.hi[i]).toFixed(1);
      }
      // A null ends the line at its time: the last value held until then (a quote rested until
      // withdrawn), so the step is drawn before the line is closed.
      if (v === null) { if (open) d += "H" + px; open = false; continue; }
      var py = sc.y(v).toFixed(1);
      d += open ? "H" + px + "V" + py : "M" + px + " " + py;
      open = true;
      points++;
    }
    if (ranges) el(svg, "path", { d: ranges, "class": "range " + cls });
    el(svg, "path", { d: d, "class": "line " + cls, "data-points": points });
    return points;
  }
  function markers(svg, token, sc) {
    var g = el(svg, "g", { "class": "fills" }), n = 0;
    token.fills.points.forEach(function (f) {
      var px = sc.x(f[0]), py = sc.y(f[2]), buy = f[1] > 0;
      var d = buy
        ? "M" + px.toFixed(1) + " " + (py - 4).toFixed(1) + "l3.5 6h-7z"
        : "M" + px.toFixed(1) + " " + (py + 4).toFixed(1) + "l3.5 -6h-7z";
      var m = el(svg, "path", { d: d, "class": "fill " + (buy ? "buy" : "sell") + (f[4] ? " taker" : " maker") }, g);
      el(svg, "title", {}, m).textContent = (buy ? "BUY " : "SELL ") + f[3] + " @ " + f[2] +
        " (" + (f[4] ? "taker" : "maker") + ", " + fmtTime(f[0], 1) + ")";
      n++;
    });
    g.setAttribute("data-markers", n);
    return n;
  }
  function draw(fig) {
    var svg = fig.querySelector("svg"), kind = fig.getAttribute("data-chart");
    var token = data.tokens[Number(fig.getAttribute("data-token"))];
    if (kind === "equity") {
      var sc = frame(svg, extent([data.equity], [0]), "USDC");
      stepLine(svg, data.equity, sc, "equity");
    } else if (kind === "inventory") {
      var sc2 = frame(svg, extent([token.inventory], [0]), "shares");
      stepLine(svg, token.inventory, sc2, "inventory");
    } else if (kind === "price") {
      var sc3 = frame(svg, extent([token.mid, token.bid, token.ask], token.fills.points.map(function (f) { return f[2]; })), "price");
      markers(svg, token, sc3);
      stepLine(svg, token.mid, sc3, "mid");
      stepLine(svg, token.bid, sc3, "bid");
      stepLine(svg, token.ask, sc3, "ask");
    } else {
      return false;
    }
    fig.setAttribute("data-drawn", "true");
    return true;
  }
  var drawn = 0;
  Array.prototype.forEach.call(document.querySelectorAll("figure[data-chart]"), function (fig) {
    try { if (draw(fig)) drawn++; } catch (err) { fig.setAttribute("data-error", String(err)); }
  });
  document.body.setAttribute("data-charts-drawn", String(drawn));
})();
`;
