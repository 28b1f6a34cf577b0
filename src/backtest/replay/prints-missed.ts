import { PRINTS_MISSED_SID } from "../../recorded/format.js";
import { LONGEST_GAPS } from "./data-gaps.js";

interface Missed {
  readonly tokenId: string;
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * The stretches in which the recording could not hold a token's trade prints (`prints_missed`
 * frames of `mm record`, PRINTS_MISSED_SID: its connection was down, the server had dropped or
 * refused its subscription — whatever the `via`, handled alike — and the exchange does not replay
 * them). A fill model driven by prints sees no trade there, and the bot's resting quotes no
 * fill, however the market traded: the summary says where (`data.printsMissed`). Counts them, sums
 * them, names the tokens and keeps the longest few, so memory stays flat.
 * @example const m = new PrintsMissed(); if (m.take(rec.frame)) continue;
 */
export class PrintsMissed {
  #count = 0;
  #totalMs = 0;
  readonly #tokens = new Set<string>();
  /** Longest first; of equal length, the earlier first. */
  readonly #longest: Missed[] = [];

  /** Takes a `prints_missed` frame (true: it is one, and not for the simulation); false for any other. */
  take(frame: { readonly sid?: unknown; readonly data?: unknown }): boolean {
    if (frame.sid !== PRINTS_MISSED_SID) return false;
    const d = frame.data as { tokenId?: unknown; fromMs?: unknown; toMs?: unknown } | undefined;
    const { tokenId, fromMs, toMs } = d ?? {};
    // A marker it cannot read goes on to the simulation, whose parser refuses and counts it.
    if (typeof tokenId !== "string" || typeof fromMs !== "number" || typeof toMs !== "number") return false;
    const ms = Math.max(0, toMs - fromMs);
    this.#count++;
    this.#totalMs += ms;
    this.#tokens.add(tokenId);
    const list = this.#longest;
    let i = list.length;
    while (i > 0 && ms > (list[i - 1] as Missed).toMs - (list[i - 1] as Missed).fromMs) i--;
    if (i < LONGEST_GAPS) {
      list.splice(i, 0, { tokenId, fromMs, toMs: fromMs + ms });
      if (list.length > LONGEST_GAPS) list.pop();
    }
    return true;
  }

  /**
   * The summary's `data.printsMissed` (undefined when there is none): how many stretches, their
   * total length (ms), the tokens (sorted) and the longest few (token, UTC times, ms).
   */
  summary() {
    if (this.#count === 0) return undefined;
    return {
      count: this.#count,
      totalMs: this.#totalMs,
      tokens: [...this.#tokens].sort(),
      longest: this.#longest.map((m) => ({
        tokenId: m.tokenId,
        from: new Date(m.fromMs).toISOString(),
        to: new Date(m.toMs).toISOString(),
        ms: m.toMs - m.fromMs,
      })),
    };
  }
}
