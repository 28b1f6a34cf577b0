import type { BookFrameRejectionCode } from "../../book/frame.js";
import type { EventRejection } from "../../gateway/schema/events.js";
import type { AmendRejectCode } from "../../venue/amend.js";
import type { PlaceRejectCode } from "../../venue/types.js";
import { LONGEST_GAPS } from "../replay/data-gaps.js";
import { type PathStep, pathText } from "./json-path.js";

/** Which summary a sweep produces: a replay's or a synthetic run's. */
export type SummaryKind = "replay" | "synthetic";

/**
 * A summary leaf: "num" a number (a JSON number, a decimal string, or null where the figure can be
 * missing), "zero" a count left out of the summary while it is 0, "text" an id, a name, a time or
 * a flag (no metric), "open" a part this check cannot see (parseMetric without a run's context).
 */
type Leaf = "num" | "zero" | "text" | "open";

/**
 * A list: `of` one shape for every element (how many unknown, at most `max` when the code caps it),
 * or one per index (so many).
 */
class List {
  constructor(
    readonly of: Shape | readonly Shape[],
    readonly max?: number,
  ) {}
}

/** Where a summary may hold something: a leaf, a list, or an object of the keys it may have. */
type Shape = Leaf | List | { readonly [key: string]: Shape };

/**
 * What a sweep knows of its summaries before any point runs, from its config (or scenario) and its
 * grid: the parts of the summary that echo settings, and the lengths of the lists that follow them.
 */
export interface SummaryContext {
  /** Every point's strategy entry, as the summary echoes it (`strategy`). */
  readonly strategies: readonly unknown[];
  /** The configured markout horizons (report.markoutsMs): `markouts` has one entry each. */
  readonly horizons: number;
  /** Replay: the summary's `latency` (latencySummary of the config). */
  readonly latency?: unknown;
  /** Replay: the `mirror` keys of the configured queue model (queueModelSummary; {} for the default). */
  readonly queueModel?: Readonly<Record<string, unknown>>;
  /** Replay: the configured markets.tokens, when the config lists them (else found in the data). */
  readonly tokens?: number | undefined;
  /** Synthetic: the run's paths (`perPath` has one row each). */
  readonly paths?: number;
  /** Synthetic: a bounded process (the default), whose summary has no `process.clamped`. */
  readonly bounded?: boolean;
}

const keys = (leaf: Leaf, ...names: string[]): Record<string, Shape> =>
  Object.fromEntries(names.map((n) => [n, leaf]));
const num = (...names: string[]) => keys("num", ...names);
const text = (...names: string[]) => keys("text", ...names);
const meanStd = num("mean", "std");
const across = num("paths", "mean", "std");
const volume = num("count", "volume", "notional");
/** A list of `n` elements of one shape (undefined: as many as the run gives). */
const list = (of: Shape, n?: number): List =>
  new List(n === undefined ? of : Array.from({ length: n }, () => of));
// DataGaps and PrintsMissed keep at most LONGEST_GAPS: an index past it no summary can hold, one
// below it only a run with so many gaps (else the point has no value and ranks last).
const LONGEST = new List({ ...text("tokenId", "from", "to"), ...num("ms") }, LONGEST_GAPS);

// Every code a count by code may hold (a count is left out while 0): typed as Records of the codes'
// unions, so a code added to one of them fails the build until it is listed here too.
const PLACE_REJECTS: Readonly<Record<PlaceRejectCode, true>> = {
  invalid_amounts: true,
  invalid_tif: true,
  invalid_outcome: true,
  expired: true,
  market_not_open: true,
  insufficient_funds: true,
  matcher_error: true,
};
const AMEND_REJECTS: Readonly<Record<AmendRejectCode, true>> = {
  order_not_found: true,
  forbidden: true,
  not_cancellable: true,
  invalid_amounts: true,
  insufficient_funds: true,
};
const FRAME_REJECTS: Readonly<Record<Exclude<EventRejection, `book_${string}`>, true>> = {
  unknown_type: true,
  bad_envelope: true,
  wrong_channel: true,
  wrong_gateway: true,
  bad_data: true,
  bad_field: true,
  id_mismatch: true,
};
const BOOK_REJECTS: Readonly<Record<BookFrameRejectionCode, true>> = {
  not_object: true,
  not_book_event: true,
  bad_channel: true,
  bad_token: true,
  bad_data: true,
  bad_seq: true,
  bad_ts: true,
};
const counts = (...sets: readonly Readonly<Record<string, true>>[]) =>
  keys("zero", ...new Set(sets.flatMap((s) => Object.keys(s))));

/** buildRunSummary's part, shared by the replay summary and every synthetic path. */
function runShape(horizons: number | undefined, tokens: number | undefined): Record<string, Shape> {
  return {
    window: { ...text("start", "end"), ...num("durationMs") },
    pnl: num("total", "realised", "unrealised", "cash"),
    fees: num("usdc", "shares", "value"),
    fills: { ...num("count"), maker: volume, taker: volume },
    inventory: list({ ...text("tokenId"), ...num("final", "mean", "maxAbs") }, tokens),
    drawdown: num("max"),
    sharpe: num("intervalMs", "samples", "perInterval", "annualised"),
    quoteUptime: "num",
    markouts: list(num("horizonMs", "fills", "unresolved", "perShare", "total"), horizons),
    orders: {
      ...num("placed", "rejected", "cancels", "cancelsRefused", "cancelAlls", "reads"),
      rejectCodes: counts(PLACE_REJECTS),
    },
    tokens: list(
      {
        ...text("tokenId", "marketId", "outcome"),
        ...num("mark", "position", "quoteUptime"),
        pnl: num("total", "realised", "unrealised"),
        inventory: num("final", "mean", "maxAbs"),
      },
      tokens,
    ),
  };
}

/** The shape of a replay summary, as much of it as `ctx` tells (without one: its open parts open). */
function replayShape(ctx: SummaryContext | undefined): Shape {
  const extra = ctx?.queueModel;
  const mirrorExtra: Record<string, Shape> =
    extra === undefined
      ? { ...num("prints", "printsIgnored", "printTrades", "printQuantity"), queueModel: "open" }
      : Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, jsonShape(v)]));
  return {
    ...text("mm", "kind"),
    ...num("version", "seed"),
    strategy: strategyShape(ctx),
    latency: ctx?.latency === undefined ? "open" : jsonShape(ctx.latency),
    data: {
      ...num("frames", "book", "trades", "lifecycle", "other", "malformedAtExchange", "snapshotsServed"),
      ...keys("zero", "resubscribed", "carried"),
      files: list("text"),
      rejected: counts(FRAME_REJECTS, prefixed("book_", BOOK_REJECTS)),
      gaps: { ...num("thresholdMs", "count", "totalMs"), longest: LONGEST },
      printsMissed: { ...keys("zero", "count", "totalMs"), tokens: list("text"), longest: LONGEST },
      truncatedFiles: list("text"),
      tokensWithoutBook: list("text"),
      tokensWithoutSnapshot: list("text"),
    },
    ...runShape(ctx?.horizons, ctx?.tokens),
    mirror: {
      ...num("placed", "amended", "cancelled", "inferredTrades", "inferredQuantity"),
      ...keys("zero", "heldCrossed"),
      rejected: counts(PLACE_REJECTS, AMEND_REJECTS),
      ...mirrorExtra,
    },
    end: num("openOrders"),
  };
}

/** The shape of a synthetic summary, as much of it as `ctx` tells. */
function syntheticShape(ctx: SummaryContext | undefined): Shape {
  const figures = ["realised", "unrealised", "fees", "makerVolume", "takerVolume", "maxDrawdown"];
  return {
    ...text("mm", "kind", "description"),
    ...num("version", "seed", "paths", "openOrdersAtEnd"),
    strategy: strategyShape(ctx),
    process: {
      ...num("s0", "sigma", "dtMs", "horizonMs"),
      ...text("increments", "bounded"),
      // Only an unbounded mid can leave what the book shows: a bounded run's summary has no counts.
      ...(ctx?.bounded === true ? {} : { clamped: num("paths", "steps") }),
    },
    fillModel: { ...num("A", "k", "size"), ...text("probability") },
    pnl: meanStd,
    finalInventory: meanStd,
    fills: meanStd,
    acrossPaths: {
      ...Object.fromEntries([...figures, "sharpe", "quoteUptime"].map((k) => [k, across])),
      inventory: { mean: across, maxAbs: across },
      markouts: list(
        { ...num("horizonMs", "fills", "unresolved"), perShare: across, total: across },
        ctx?.horizons,
      ),
    },
    perPath: list(num("path", "pnl", "finalInventory", "fills", "maxDrawdown", "quoteUptime"), ctx?.paths),
  };
}

const prefixed = (prefix: string, set: Readonly<Record<string, true>>): Record<string, true> =>
  Object.fromEntries(Object.keys(set).map((k) => [`${prefix}${k}`, true]));

/** The strategy entries' common shape: what every point's summary holds under `strategy`. */
function strategyShape(ctx: SummaryContext | undefined): Shape {
  if (ctx === undefined || ctx.strategies.length === 0) return "open";
  return ctx.strategies.map(jsonShape).reduce(meet);
}

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** The shape of a JSON value echoed into the summary (settings: each list's length is its own). */
function jsonShape(v: unknown): Shape {
  if (typeof v === "number") return "num";
  if (typeof v === "string") return DECIMAL.test(v) ? "num" : "text";
  if (Array.isArray(v)) return new List(v.map(jsonShape));
  if (typeof v === "object" && v !== null) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonShape(x)]));
  }
  return "text";
}

/**
 * Two points' strategy shapes combined: a key or index valid in both (a typo is refused with the
 * keys every point has), and a number where either holds one — a point whose value there is no
 * number (null, a flag, text, a list or object) reads as no value and ranks last, as other missing
 * values do. A list or object against a value that is no number keeps its own paths.
 */
function meet(a: Shape, b: Shape): Shape {
  if (a === "num" || b === "num") return "num";
  if (typeof a === "string" && typeof b === "string") return a === b ? a : "text";
  if (typeof a === "string") return b;
  if (typeof b === "string") return a;
  if (a instanceof List || b instanceof List) {
    if (!(a instanceof List && b instanceof List && Array.isArray(a.of) && Array.isArray(b.of)))
      return "text";
    const [x, y] = [a.of as readonly Shape[], b.of as readonly Shape[]];
    return new List(x.slice(0, y.length).map((s, i) => meet(s, y[i] as Shape)));
  }
  const out: Record<string, Shape> = {};
  for (const k of Object.keys(a)) if (Object.hasOwn(b, k)) out[k] = meet(a[k] as Shape, b[k] as Shape);
  return out;
}

/** A path checked against the summary's shape: the problem, or how its value is read. */
export type PathCheck = { readonly problem: string } | { readonly absentIsZero: boolean };

/**
 * Checks a `--rank-by` path before any point runs: it must reach a number of every `kind` summary
 * the sweep can produce (a count left out while 0 reads as 0: `absentIsZero`). Refused with the
 * reason: a key no such summary has (the keys that are there named), an index past a list the
 * config sizes (markouts, tokens, perPath, a strategy list) or the code caps (the `longest` gaps and
 * missed prints: LONGEST_GAPS), a step into a value, or an end that is
 * not a number (text: an id, a name, a time; or an object, a list). With `ctx`, the parts that echo
 * settings (the strategy, latencies, the queue model) are the run's own; without it they are open.
 * @example checkPath(["pnl", "totl"], "replay") // { problem: "the replay summary has no pnl.totl (pnl holds total, …)" }
 */
export function checkPath(steps: readonly PathStep[], kind: SummaryKind, ctx?: SummaryContext): PathCheck {
  let shape = kind === "replay" ? replayShape(ctx) : syntheticShape(ctx);
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as PathStep;
    const here = i === 0 ? "the summary" : pathText(steps.slice(0, i));
    if (shape === "open") return { absentIsZero: false };
    if (typeof shape === "string") return { problem: `${here} is a single value, with nothing inside it` };
    if (shape instanceof List) {
      if (typeof s !== "number") return { problem: `${here} is a list: pick an element, e.g. ${here}[0]` };
      if (!Array.isArray(shape.of)) {
        const max = shape.max;
        if (max !== undefined && s >= max)
          return { problem: `${here} holds at most ${max} elements (${here}[0]…[${max - 1}])` };
        shape = shape.of as Shape;
        continue;
      }
      const n = shape.of.length;
      if (s >= n)
        return {
          problem: `${here} has ${n} element${n === 1 ? "" : "s"} in this sweep (${here}[0]…[${n - 1}])`,
        };
      shape = shape.of[s] as Shape;
      continue;
    }
    if (typeof s === "number") return { problem: `${here} is not a list` };
    if (!Object.hasOwn(shape, s)) {
      const missing = pathText(steps.slice(0, i + 1));
      return {
        problem: `the ${kind} summary has no ${missing} (${here} holds ${Object.keys(shape).join(", ")})`,
      };
    }
    shape = shape[s] as Shape;
  }
  const at = pathText(steps);
  if (shape === "num" || shape === "open") return { absentIsZero: false };
  if (shape === "zero") return { absentIsZero: true };
  if (shape === "text") return { problem: `${at} is text (an id, a name, a time or a flag), not a number` };
  if (shape instanceof List)
    return { problem: `${at} is a list, not a number: pick an element, e.g. ${at}[0]` };
  const some = Object.keys(shape).slice(0, 8).join(", ");
  return { problem: `${at} is not a number but a part of the summary: pick a field (${at} holds ${some})` };
}
