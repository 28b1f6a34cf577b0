import type { ConfigReader } from "../config-reader.js";
import { units } from "../report/decimal.js";
import { PRINT_PAIRING_MS } from "./queue-model.js";
import {
  DEFAULT_QUEUE_MODEL,
  PROB_FNS,
  type ProbFn,
  type QueueModelSpec,
  type TradeSource,
} from "./queue-model-spec.js";

const TYPES = ["conservative", "riskAverse", "probabilistic"] as const;
const TRADES: readonly TradeSource[] = ["inferred", "recorded", "auto"];

/** Longest print-pairing window accepted (ms): a minute is far past any two-channel skew. */
const MAX_PAIRING_MS = 60_000;

/**
 * Reads the replay's `queueModel`: a type name ("conservative", the default; "riskAverse";
 * "probabilistic", meaning power n = 2), or an object `{type, trades?, printPairingMs?, fn?, n?}`:
 * `trades` "inferred" (default) | "recorded" | "auto"; `printPairingMs` how long after a decrease
 * a print may still be its trade (integer ms ≥ 0, default PRINT_PAIRING_MS = 5; only with prints);
 * for "probabilistic" `fn` one of power, power2, power3, log, log2 (default power) and `n` > 0 for
 * the power forms (default 2).
 * @example readQueueModel(r, { type: "probabilistic", fn: "power", n: 3, trades: "auto" })
 */
export function readQueueModel(r: ConfigReader, v: unknown): QueueModelSpec {
  if (v === undefined) return DEFAULT_QUEUE_MODEL;
  const raw = typeof v === "string" ? { type: v } : v;
  const isProb =
    typeof raw === "object" && raw !== null && (raw as { type?: unknown }).type === "probabilistic";
  const keys = ["type", "trades", "printPairingMs"];
  const o = r.section(raw, "queueModel", isProb ? [...keys, "fn", "n"] : keys);
  if (o.type === undefined && typeof raw === "object" && raw !== null && !Array.isArray(raw))
    r.issues.add("queueModel.type", "is required");
  const type = r.oneOf(o, "queueModel", "type", TYPES, "conservative");
  const trades = r.oneOf(o, "queueModel", "trades", TRADES, "inferred");
  // Only an explicit window enters the spec: default configurations keep the summary they gave.
  let pairing: { printPairingMs?: number } = {};
  if (o.printPairingMs !== undefined) {
    if (trades === "inferred")
      r.issues.add(
        "queueModel.printPairingMs",
        'applies with recorded prints only (trades "recorded" or "auto")',
      );
    pairing = {
      printPairingMs: r.num(o, "queueModel", "printPairingMs", PRINT_PAIRING_MS, {
        min: 0,
        max: MAX_PAIRING_MS,
        int: true,
      }),
    };
  }
  if (type !== "probabilistic") return { type, trades, ...pairing };
  const fn = r.oneOf<ProbFn>(o, "queueModel", "fn", PROB_FNS, "power");
  const power = fn.startsWith("power");
  if (!power && o.n !== undefined)
    r.issues.add("queueModel.n", `applies to the power functions only, not "${fn}"`);
  const n = r.num(o, "queueModel", "n", 2, { gt: 0, max: 100 });
  return { type, fn, n: power ? n : 1, trades, ...pairing };
}

/** The queue model in the spec's JSON form (for the summary). */
export function queueModelEcho(spec: QueueModelSpec): Record<string, unknown> {
  const pairing = spec.printPairingMs === undefined ? {} : { printPairingMs: spec.printPairingMs };
  return spec.type === "probabilistic"
    ? {
        type: spec.type,
        fn: spec.fn,
        ...(spec.fn.startsWith("power") ? { n: spec.n } : {}),
        trades: spec.trades,
        ...pairing,
      }
    : { type: spec.type, trades: spec.trades, ...pairing };
}

/** What the mirror did with recorded trade prints. */
export interface PrintCounters {
  /** Prints used (trades mode other than "inferred"). */
  prints: number;
  /** Prints refused: unknown side, or a price / quantity that is not a valid decimal. */
  printsIgnored: number;
  /** Prints that went through a bot order's queue place, and the shares they offered the bot. */
  printTrades: number;
  printQty: bigint;
}

/**
 * The summary's extra `mirror` keys for a non-default queue model: the model and what the prints
 * did. Empty for the default, so that default configurations give the summary they always gave.
 */
export function queueModelSummary(spec: QueueModelSpec, c: PrintCounters): Record<string, unknown> {
  if (spec.type === DEFAULT_QUEUE_MODEL.type && spec.trades === DEFAULT_QUEUE_MODEL.trades) return {};
  return {
    queueModel: queueModelEcho(spec),
    prints: c.prints,
    printsIgnored: c.printsIgnored,
    printTrades: c.printTrades,
    printQuantity: units(c.printQty, 6),
  };
}
