import type { Logger } from "../observability/logger.js";
import type { RiskDecision } from "../risk/decision.js";
import type { EngineEvent } from "./engine-events.js";

/**
 * Logs risk decisions with their reasons without flooding: the quoting step runs on every book
 * update and a held limit (reduce-only, a stale book) would repeat the same decision hundreds of times
 * a second. Per scope (a token, a market, the wallet) the log says what changed: a new set of
 * decisions is logged once, its disappearance once ("risk: cleared"). The listener still receives
 * every decision, for counting.
 *
 * A token has two channels: the guard's decisions on its desired quotes (`step`, info), and the
 * in-flight fit's (`inFlight`, debug). The latter come and go with every cancel-replace near a
 * limit (a placement waits for the cancel it replaces); kept apart, they never make the guard's
 * standing decisions (reduce-only, a blocked side) be logged again.
 */
export class DecisionLog {
  readonly #log: Logger;
  readonly #emit: (e: EngineEvent) => void;
  readonly #last = new Map<string, string>();
  readonly #lastInFlight = new Map<string, string>();

  constructor(log: Logger, emit: (e: EngineEvent) => void) {
    this.#log = log;
    this.#emit = emit;
  }

  /** The guard's decisions of one quoting step of `tokenId` (possibly none). */
  step(tokenId: string, decisions: readonly RiskDecision[], now: number): void {
    this.#record(this.#last, tokenId, decisions, now, "info");
  }

  /** The in-flight fit's decisions of one quoting step of `tokenId` (possibly none). */
  inFlight(tokenId: string, decisions: readonly RiskDecision[], now: number): void {
    this.#record(this.#lastInFlight, tokenId, decisions, now, "debug");
  }

  /** A decision taken on an event (kill switch, platform frozen, market paused, book state): always logged. */
  event(d: RiskDecision, now: number): void {
    this.#emit({ type: "decision", atMs: now, decision: d });
    this.#write(d, "info");
  }

  #record(
    last: Map<string, string>,
    tokenId: string,
    decisions: readonly RiskDecision[],
    now: number,
    level: "info" | "debug",
  ): void {
    if (decisions.length === 0) {
      if (last.has(tokenId)) {
        last.delete(tokenId);
        this.#log[level]({ tokenId }, last === this.#last ? "risk: cleared" : "risk: in-flight cleared");
      }
      return;
    }
    for (const d of decisions) this.#emit({ type: "decision", atMs: now, decision: d });
    const sig = signature(decisions);
    if (last.get(tokenId) === sig) return;
    last.set(tokenId, sig);
    for (const d of decisions) this.#write(d, level);
  }

  #write(d: RiskDecision, level: "info" | "debug"): void {
    const fields = {
      reason: d.reason,
      action: d.action,
      scope: d.scope,
      tokenId: d.tokenId,
      marketId: d.marketId,
      side: d.side,
      level: d.level,
      ...d.detail,
    };
    // Wallet and market gates stop quoting broadly: warn. A book's gate is routine (every book waits for
    // its snapshot at start, resyncs after a gap) and single quotes are trimmed all the time: info.
    if (d.action === "cancel" && (d.scope === "wallet" || d.scope === "market")) {
      this.#log.warn(fields, `risk: ${d.reason}`);
    } else this.#log[level](fields, `risk: ${d.reason}`);
  }
}

function signature(decisions: readonly RiskDecision[]): string {
  let s = "";
  for (const d of decisions) s += `${d.reason}:${d.action}:${d.side ?? ""}:${d.level ?? ""};`;
  return s;
}
