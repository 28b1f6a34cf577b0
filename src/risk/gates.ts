import type { BookState } from "../book/book-state.js";
import type { GateReason } from "./decision.js";

/** What the guard needs of a book's health (a BookTracker BookState fits). */
export type BookHealth = Pick<BookState, "status" | "crossed">;

/**
 * Whether a book can be quoted from: a crossed book (`book_crossed`, whatever its status), one
 * waiting for a snapshot or known to diverge (`book_resyncing`), or one not known to be fresh
 * (`book_stale`) cannot; its live quotes must go, since they were priced from a book we no longer trust.
 */
export function bookGate(book: BookHealth): GateReason | undefined {
  if (book.crossed) return "book_crossed";
  if (book.status === "resyncing") return "book_resyncing";
  if (book.status === "stale") return "book_stale";
  return undefined;
}

/** Only an OPEN market is quotable (the exchange answers anything else with 409 market_not_open). */
export function marketGate(status: string | undefined): GateReason | undefined {
  return status === "OPEN" ? undefined : "market_not_open";
}
