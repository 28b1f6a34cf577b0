import type { Clock } from "../core/clock.js";
import type { BookStateEvent, BookStateReason, BookStatus } from "./book-state.js";
import type { BookView } from "./order-book.js";
import type { TokenBook } from "./token-book.js";

/**
 * Changes a book's status and tells the listeners: state listeners on every status or
 * quotability change (with the reason), book listeners after every applied frame.
 * Listeners run synchronously and must not throw.
 */
export class StatePublisher {
  readonly #clock: Clock;
  readonly #state = new Set<(e: BookStateEvent) => void>();
  readonly #book = new Set<(book: BookView) => void>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Adds a state listener; returns its removal. */
  onState(fn: (e: BookStateEvent) => void): () => void {
    this.#state.add(fn);
    return () => this.#state.delete(fn);
  }

  /** Adds a book listener; returns its removal. */
  onBook(fn: (book: BookView) => void): () => void {
    this.#book.add(fn);
    return () => this.#book.delete(fn);
  }

  /** Moves `st` to `status`; announces it when the status or the quotability changed. */
  set(st: TokenBook, status: BookStatus, reason: BookStateReason): void {
    const previous = st.status;
    if (status === previous && st.quotable === st.emittedQuotable) return;
    st.status = status;
    st.reason = reason;
    st.since = this.#clock.now();
    this.announce(st, previous);
  }

  /** Announces the current state of `st` (previous undefined: a book just added). */
  announce(st: TokenBook, previous: BookStatus | undefined): void {
    st.emittedQuotable = st.quotable;
    if (this.#state.size === 0) return;
    const e: BookStateEvent = { ...st.view(), previous };
    for (const fn of this.#state) fn(e);
  }

  /** Tells book listeners that `st`'s book changed. */
  bookChanged(st: TokenBook): void {
    for (const fn of this.#book) fn(st.book);
  }
}
