import type { FaultState } from "../faults/state.js";
import type { RejectCode } from "./channels.js";

/**
 * The market-feed faults of FaultState, read by the token publishers. Each set holds token ids or
 * "*" (every token). skipSeq and reorder are one-shot: the entry that matched (the token's own, or
 * "*") is consumed by the frame it affected. silenced lasts until the entry is removed, and so
 * does refusedBooks (token ids only), read by the subscribe commands rather than the publishers.
 */

/** True when nothing may be published on this token's feeds. */
export function isSilenced(faults: FaultState, tokenId: string): boolean {
  const s = faults.feed.silenced;
  return s.size > 0 && (s.has(tokenId) || s.has("*"));
}

/** Consumes a pending skipSeq fault for this token; true when the next book frame must show a gap. */
export function takeSkipSeq(faults: FaultState, tokenId: string): boolean {
  return take(faults.feed.skipSeq, tokenId);
}

/** Consumes a pending reorder fault for this token; true when the next book frame must be held back. */
export function takeReorder(faults: FaultState, tokenId: string): boolean {
  return take(faults.feed.reorder, tokenId);
}

function take(set: Set<string>, tokenId: string): boolean {
  if (set.size === 0) return false;
  if (set.delete(tokenId)) return true;
  return set.delete("*");
}

/** The code a token_book subscription of this token is refused with, or undefined (not refused). */
export function bookRefusal(faults: FaultState, tokenId: string): RejectCode | undefined {
  return faults.feed.refusedBooks.get(tokenId);
}
