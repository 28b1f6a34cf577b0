import { prettyFactory } from "pino-pretty";
import { HUMAN_LOG_OPTIONS } from "../../src/observability/pretty-line.js";
import type { BenchCase } from "./harness.js";

export const title = "Terminal log lines (log.pretty): lines rendered/s";

/*
 * One op = one JSON log line, as pino wrote it, rendered for a terminal with colours. The lines
 * are a mix of what a paper session prints: a risk decision, a fill, the status line and an error.
 * Baseline: pino-pretty with the fields hidden (what mm paper printed before its lines showed their
 * fields). Then the terminal format (message, then key=value), and pino-pretty's default (every
 * field on a line of its own, what mm run printed).
 */

const LINES = [
  '{"level":30,"time":"2026-11-21T23:14:26.606Z","cmd":"paper","component":"engine","reason":"market_not_open","action":"cancel","scope":"token","tokenId":"34256459913962674934787247946255017729385173334702956934175892752281248529327","marketId":"9a7b0c1d-0000-4000-8000-000000000300","msg":"risk: market_not_open"}',
  '{"level":30,"time":"2026-11-21T23:14:27.070Z","cmd":"paper","tradeId":"0017b404-fb2c-7fde-90cb-ed234f574a4b","clientOrderId":"mm-mt7kma3x-cb38613f64-s0-1795302866585002","source":"stream","positionMicro":"-10000000","pnlMicro":"150000","msg":"fill: sell 10 @ 0.56 arg-vs-fra-final-arg-win YES (position -10, PnL +0.15 USDC)"}',
  '{"level":30,"time":"2026-11-21T23:14:56.654Z","cmd":"paper","started":true,"reconciled":true,"quotingTokens":16,"openOrders":26,"inFlight":0,"killSwitch":false,"pnlMicro":"25815000","fills":155,"msg":"status: 16 token(s) quoted, 26 open order(s), 0 in flight, 155 fill(s), PnL +25.815 USDC"}',
  '{"level":40,"time":"2026-11-21T23:14:57.001Z","cmd":"paper","component":"engine","tokenId":"34256459913962674934787247946255017729385173334702956934175892752281248529327","side":"buy","priceMicro":555000,"sizeMicro":"10000000","clientOrderId":"mm-a-b-s0-1","err":{"type":"ExchangeError","message":"price off tick","code":"invalid_tick_size","stack":"ExchangeError: price off tick\\n    at x (y.ts:1:1)"},"msg":"order rejected"}',
];

function rendering(name: string, options: Parameters<typeof prettyFactory>[0], baseline = false): BenchCase {
  const render = prettyFactory({ colorize: true, ...options });
  let chars = 0;
  return {
    name,
    ...(baseline ? { baseline } : {}),
    batch: 4_000,
    run(n) {
      for (let i = 0; i < n; i++) chars += render(LINES[i % LINES.length] ?? "").length;
    },
    teardown() {
      if (chars === 0) throw new Error("nothing rendered");
    },
  };
}

export function benches(): BenchCase[] {
  return [
    rendering("pino-pretty, fields hidden (mm paper before)", { hideObject: true }, true),
    rendering("terminal format: message, then key=value", HUMAN_LOG_OPTIONS),
    rendering("pino-pretty default, a line per field (mm run before)", {}),
  ];
}
