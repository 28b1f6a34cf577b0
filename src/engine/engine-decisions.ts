import type { Logger } from "../observability/logger.js";
import type { RiskDecision } from "../risk/decision.js";
import type { EngineEvent } from "./engine-events.js";

/**
 * Logs risk decisions with their reasons without flooding: the quoting step runs on every book
 * update and a held limit (reduce-only, a stale book) would repeat the same decision hundreds of times
 * a second. Per scope (a token, a market, the wallet) the log says what changed: a new set of
 * decisions is logged once, its disappearance once ("risk: cleared"). The listener still receives
 * every decision, for counting.
 */
export class DecisionLog {
  readonly #log: Logger;
  readonly #emit: (e: EngineEvent) => void;
  readonly #last = new Map<string, string>();

  constructor(log: Logger, emit: (e: EngineEvent) => void) {
    this.#log = log;
    this.#emit = emit;
  }

  /** The decisions of one quoting step of `tokenId` (possibly none). */
  step(tokenId: string, decisions: readonly RiskDecision[], now: number): void {
    if (decisions.length === 0) {
      if (this.#last.has(tokenId)) {
        this.#last.delete(tokenId);
        this.#log.info({ tokenId }, "risk: cleared");
      }
      return;
    }
    for (const d of decisions) this.#emit({ type: "decision", atMs: now, decision: d });
    const sig = signature(decisions);
    if (this.#last.get(tokenId) === sig) return;
    this.#last.set(tokenId, sig);
    for (const d of decisions) this.#write(d);
  }

  /** A decision taken on an event (kill switch, platform frozen, market paused, book state): always logged. */
  event(d: RiskDecision, now: number): void {
    this.#emit({ type: "decision", atMs: now, decision: d });
    this.#write(d);
  }

  #write(d: RiskDecision): void {
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
    } else this.#log.info(fields, `risk: ${d.reason}`);
  }
}

function signature(decisions: readonly RiskDecision[]): string {
  let s = "";
  for (const d of decisions) s += `${d.reason}:${d.action}:${d.side ?? ""}:${d.level ?? ""};`;
  return s;
}
