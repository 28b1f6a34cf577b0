import { type PathStep, pathText } from "./json-path.js";
import type { SummaryKind } from "./metric.js";

/**
 * Where a summary may hold something, for checking a `--rank-by` path before any point runs:
 * "value" a leaf (number, string, null), "open" a part whose keys vary (the strategy's parameters,
 * counts by reject code, a latency echo), an object of the keys it may have (optional ones
 * included), or an array of elements of one shape.
 */
type Shape = "value" | "open" | { readonly [key: string]: Shape } | readonly [Shape];

const V = "value";
const keys = (...names: string[]): Record<string, Shape> => Object.fromEntries(names.map((n) => [n, V]));
const meanStd = keys("mean", "std");
const across = keys("paths", "mean", "std");
const volume = keys("count", "volume", "notional");

/** buildRunSummary's part, shared by the replay summary and every synthetic path. */
const RUN: Record<string, Shape> = {
  window: keys("start", "end", "durationMs"),
  pnl: keys("total", "realised", "unrealised", "cash"),
  fees: keys("usdc", "shares", "value"),
  fills: { count: V, maker: volume, taker: volume },
  inventory: [keys("tokenId", "final", "mean", "maxAbs")],
  drawdown: keys("max"),
  sharpe: keys("intervalMs", "samples", "perInterval", "annualised"),
  quoteUptime: V,
  markouts: [keys("horizonMs", "fills", "unresolved", "perShare", "total")],
  orders: {
    ...keys("placed", "rejected", "cancels", "cancelsRefused", "cancelAlls", "reads"),
    rejectCodes: "open",
  },
  tokens: [
    {
      ...keys("tokenId", "marketId", "outcome", "mark", "position", "quoteUptime"),
      pnl: keys("total", "realised", "unrealised"),
      inventory: keys("final", "mean", "maxAbs"),
    },
  ],
};

const LONGEST = [keys("tokenId", "from", "to", "ms")] as const;

const SHAPES: Readonly<Record<SummaryKind, Shape>> = {
  replay: {
    ...keys("mm", "version", "kind", "seed"),
    strategy: "open",
    latency: "open",
    data: {
      ...keys("frames", "book", "trades", "lifecycle", "other", "malformedAtExchange", "snapshotsServed"),
      ...keys("resubscribed", "carried"),
      files: [V],
      rejected: "open",
      gaps: { ...keys("thresholdMs", "count", "totalMs"), longest: LONGEST },
      printsMissed: { ...keys("count", "totalMs"), tokens: [V], longest: LONGEST },
      truncatedFiles: [V],
      tokensWithoutBook: [V],
      tokensWithoutSnapshot: [V],
    },
    ...RUN,
    mirror: {
      ...keys("placed", "amended", "cancelled", "inferredTrades", "inferredQuantity", "heldCrossed"),
      ...keys("prints", "printsIgnored", "printTrades", "printQuantity"),
      rejected: "open",
      queueModel: "open",
    },
    end: keys("openOrders"),
  },
  synthetic: {
    ...keys("mm", "version", "kind", "description", "seed", "paths", "openOrdersAtEnd"),
    strategy: "open",
    process: {
      ...keys("s0", "sigma", "dtMs", "horizonMs", "increments", "bounded"),
      clamped: keys("paths", "steps"),
    },
    fillModel: keys("A", "k", "probability", "size"),
    pnl: meanStd,
    finalInventory: meanStd,
    fills: meanStd,
    acrossPaths: {
      ...Object.fromEntries(
        [
          "realised",
          "unrealised",
          "fees",
          "makerVolume",
          "takerVolume",
          "maxDrawdown",
          "sharpe",
          "quoteUptime",
        ].map((k) => [k, across]),
      ),
      inventory: { mean: across, maxAbs: across },
      markouts: [{ ...keys("horizonMs", "fills", "unresolved"), perShare: across, total: across }],
    },
    perPath: [keys("path", "pnl", "finalInventory", "fills", "maxDrawdown", "quoteUptime")],
  },
};

/**
 * Why `steps` can name nothing in a `kind` summary (a key no summary of the kind has, an index into
 * something that is not a list, a step past a value), or undefined when it may: a path that reaches
 * an open part, or a known part that is not a number, is left to the check against the first result.
 * @example pathProblem(["pnl", "totl"], "replay") // "the replay summary has no pnl.totl (pnl holds total, …)"
 */
export function pathProblem(steps: readonly PathStep[], kind: SummaryKind): string | undefined {
  let shape = SHAPES[kind];
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as PathStep;
    const here = i === 0 ? "the summary" : pathText(steps.slice(0, i));
    if (shape === "open") return undefined;
    if (shape === "value") return `${here} is a single value, with nothing inside it`;
    if (Array.isArray(shape)) {
      if (typeof s !== "number") return `${here} is a list: pick an element, e.g. ${here}[0]`;
      shape = shape[0] as Shape;
      continue;
    }
    const fields = shape as { readonly [key: string]: Shape };
    if (typeof s === "number") return `${here} is not a list`;
    if (!Object.hasOwn(fields, s)) {
      const missing = pathText(steps.slice(0, i + 1));
      return `the ${kind} summary has no ${missing} (${here} holds ${Object.keys(fields).join(", ")})`;
    }
    shape = fields[s] as Shape;
  }
  return undefined;
}
