/**
 * Where trades come from: "inferred" (the recording's prints ignored; a decrease of the level at
 * the touch is a trade), "recorded" (only the prints are trades; every decrease is a cancel),
 * "auto" (recorded for a token once it has printed, inferred until then).
 */
export type TradeSource = "inferred" | "recorded" | "auto";

/**
 * hftbacktest's probability functions (front = size ahead, back = size behind; P(back) is the
 * probability that a cancel is behind the order, 1 − P(back) its share off the front):
 * - power: P(back) = f(back) / (f(back) + f(front)), f(x) = x^n
 * - power2: P(back) = f(back) / f(back + front), f(x) = x^n
 * - power3: P(back) = 1 − f(front / (front + back)), f(x) = x^n
 * - log: P(back) = g(back) / (g(back) + g(front)), g(x) = ln(1 + x), sizes in shares
 * - log2: P(back) = g(back) / g(back + front)
 */
export type ProbFn = "power" | "power2" | "power3" | "log" | "log2";

/** What every queue model has: where trades come from, and how late a print may follow its decrease. */
interface QueueModelBase {
  readonly trades: TradeSource;
  /**
   * How long after a decrease of a level (ms of the replay's clock) a print at that level may still
   * be the trade that caused it; absent: PRINT_PAIRING_MS (5). Read only when prints are used.
   */
  readonly printPairingMs?: number;
}

/** The queue model of a replay (config `queueModel`). */
export type QueueModelSpec =
  /** Every cancel leaves ahead of the order (the original rule; the default). */
  | (QueueModelBase & { readonly type: "conservative" })
  /** Every cancel leaves behind the order, as far as the level behind it holds (hftbacktest RiskAdverse). */
  | (QueueModelBase & { readonly type: "riskAverse" })
  /** Cancels split ahead / behind by a probability function (hftbacktest ProbQueueModel). */
  | (QueueModelBase & { readonly type: "probabilistic"; readonly fn: ProbFn; readonly n: number });

/** The default: today's rule, byte-identical replays. */
export const DEFAULT_QUEUE_MODEL: QueueModelSpec = { type: "conservative", trades: "inferred" };

/** Function names accepted by `fn`. */
export const PROB_FNS: readonly ProbFn[] = ["power", "power2", "power3", "log", "log2"];

/**
 * Share (0…1) of a cancel that leaves ahead of an order with `ahead` in front of it and `behind`
 * after it (micro-units), for a probabilistic spec: 1 − P(back). Power forms are computed on the
 * ratio, so no size overflows; the log forms take sizes in shares (ln(1 + x) is not scale-free).
 * @example cancelFrontShare({ type: "probabilistic", fn: "power", n: 2, trades: "auto" }, 30, 10) // 0.9
 */
export function cancelFrontShare(
  spec: Extract<QueueModelSpec, { type: "probabilistic" }>,
  ahead: number,
  behind: number,
): number {
  if (ahead <= 0) return 0;
  if (behind <= 0) return 1;
  const n = spec.n;
  const total = ahead + behind;
  switch (spec.fn) {
    case "power":
      return 1 / (1 + (behind / ahead) ** n);
    case "power2":
      return 1 - (behind / total) ** n;
    case "power3":
      return (ahead / total) ** n;
    case "log": {
      const b = Math.log1p(behind / 1e6);
      return 1 - b / (b + Math.log1p(ahead / 1e6));
    }
    case "log2":
      return 1 - Math.log1p(behind / 1e6) / Math.log1p(total / 1e6);
  }
}
