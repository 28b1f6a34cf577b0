import { createHash } from "node:crypto";

/**
 * Deterministic client order ids. An id is a pure function of (session, token, side, level, seq),
 * so a replayed backtest produces the same ids and a reconciler can recognise its own orders after
 * an ambiguous send. The session tag separates process runs so a restarted bot never reuses an id.
 * @example clientOrderId({ session: "a1b2c3", tokenId: "123", side: "buy", level: 0, seq: 7 }) // "mm-a1b2c3-…-7"
 */
export function clientOrderId(parts: {
  session: string;
  tokenId: string;
  side: "buy" | "sell";
  level: number;
  seq: number;
}): string {
  return `mm-${parts.session}-${tokenTag(parts.tokenId)}-${parts.side === "buy" ? "b" : "s"}${parts.level}-${parts.seq}`;
}

// The token id is 78 digits; a short stable digest keeps ids readable in logs and well under any
// length cap. Memoised: a busy quoter mints ids for the same few tokens thousands of times a second.
const TAGS = new Map<string, string>();
const MAX_TAGS = 10_000;

function tokenTag(tokenId: string): string {
  let tag = TAGS.get(tokenId);
  if (tag === undefined) {
    tag = createHash("sha256").update(tokenId).digest("hex").slice(0, 10);
    if (TAGS.size >= MAX_TAGS) TAGS.clear();
    TAGS.set(tokenId, tag);
  }
  return tag;
}

const SESSION_RE = /^[a-z0-9]{1,16}$/;

/** Validates a session tag (lowercase alphanumerics, 1–16 chars) so ids stay parseable. */
export function isValidSessionTag(tag: string): boolean {
  return SESSION_RE.test(tag);
}
