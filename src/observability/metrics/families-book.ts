import { Counter, Gauge, type Registry } from "prom-client";
import type { BookCounters, BookStatus } from "../../book/book-state.js";
import { MaxByLabels, type TokenLabels } from "./market-labels.js";
import { fromMicro, type MetricsContext } from "./sources.js";

const STATES: readonly BookStatus[] = ["synced", "resyncing", "stale"];

/** BookCounters fields exported as counters, by the family and label they go to. */
const FRAME_KINDS = { snapshot: "snapshots", update: "updates", delta: "deltas" } as const;
const DROP_REASONS = {
  missing_seq: "droppedMissingSeq",
  stale_seq: "droppedStale",
  while_resyncing: "droppedWhileResyncing",
  malformed: "malformed",
} as const;
const SNAPSHOT_FAILURES = {
  failed: "snapshotFailures",
  timeout: "snapshotTimeouts",
  port_error: "portErrors",
} as const;

/** The order-book families (see README "Metrics"). */
export function bookFamilies(registry: Registry, ctx: MetricsContext) {
  const registers = [registry];
  const { sources, labels, deltas, clock } = ctx;
  // Each tracker's own counters, by the increase since the last scrape.
  const fromCounters = (c: Counter<string>, map: Readonly<Record<string, CounterField>>, label: string) => {
    for (const t of sources.trackers) {
      for (const [value, field] of Object.entries(map)) {
        c.inc({ [label]: value }, deltas.step(t, `book:${field}`, t.counters[field]));
      }
    }
  };
  const single = (c: Counter<string>, field: CounterField) => {
    for (const t of sources.trackers) c.inc(deltas.step(t, `book:${field}`, t.counters[field]));
  };

  const families = {
    updates: new Counter({
      name: "mm_book_updates_total",
      help: "Book frames applied (snapshot, update or delta), per token.",
      labelNames: ["market", "outcome"] as const,
      registers,
    }),
    gaps: new Counter({
      name: "mm_book_gaps_total",
      help: "Sequence gaps detected (prevSeq not the last seq), per token; each one forces a resync.",
      labelNames: ["market", "outcome"] as const,
      registers,
    }),
    resyncs: new Counter({
      name: "mm_book_resyncs_total",
      help: "Books that entered the resyncing state, per token and reason (gap, malformed, crossed, resubscribed).",
      labelNames: ["market", "outcome", "reason"] as const,
      registers,
    }),
    frames: new Counter({
      name: "mm_book_frames_total",
      help: "Book frames applied over all tokens, by kind (snapshot, update, delta).",
      labelNames: ["kind"] as const,
      registers,
      collect() {
        fromCounters(this, FRAME_KINDS, "kind");
      },
    }),
    dropped: new Counter({
      name: "mm_book_frames_dropped_total",
      help: "Book frames not applied, by reason (missing_seq, stale_seq, while_resyncing, malformed).",
      labelNames: ["reason"] as const,
      registers,
      collect() {
        fromCounters(this, DROP_REASONS, "reason");
      },
    }),
    snapshotRequests: new Counter({
      name: "mm_book_snapshot_requests_total",
      help: "get_book_snapshot requests the book tracker made (gaps, crossed books, stalls, retries).",
      registers,
      collect() {
        single(this, "resyncs");
      },
    }),
    snapshotFailures: new Counter({
      name: "mm_book_snapshot_failures_total",
      help: "Snapshot requests that failed, by kind (failed: book_snapshot_failed, timeout, port_error).",
      labelNames: ["kind"] as const,
      registers,
      collect() {
        fromCounters(this, SNAPSHOT_FAILURES, "kind");
      },
    }),
    stalls: new Counter({
      name: "mm_book_stalls_total",
      help: "Books judged silent against their own update rate.",
      registers,
      collect() {
        single(this, "stalls");
      },
    }),
    crossed: new Counter({
      name: "mm_book_crossed_total",
      help: "Times a book became crossed (best bid >= best ask).",
      registers,
      collect() {
        single(this, "crossed");
      },
    }),
    state: new Gauge({
      name: "mm_book_state",
      help: "Books in each tracker state (synced, resyncing, stale): 1 or 0 per token; a count under market=other.",
      labelNames: ["market", "outcome", "state"] as const,
      registers,
      collect() {
        this.reset();
        for (const [tokenId, l] of allTokens()) {
          for (const s of STATES) this.inc({ ...l, state: s }, 0);
          const st = stateOf(tokenId);
          if (st !== undefined) this.inc({ ...l, state: st.status }, 1);
        }
      },
    }),
    quotable: new Gauge({
      name: "mm_book_quotable",
      help: "1 when the token's book is synced and not crossed (safe to quote from); a count under market=other.",
      labelNames: ["market", "outcome"] as const,
      registers,
      collect() {
        this.reset();
        for (const [tokenId, l] of allTokens()) this.inc(l, stateOf(tokenId)?.quotable === true ? 1 : 0);
      },
    }),
    refused: new Gauge({
      name: "mm_book_refused",
      help: "1 when the token's book subscription was refused for good (not retried, not quoted); a count under market=other.",
      labelNames: ["market", "outcome"] as const,
      registers,
      collect() {
        this.reset();
        const refused = new Set<string>();
        for (const t of sources.trackers) for (const id of t.refused?.() ?? []) refused.add(id);
        const all = allTokens();
        // A refused token is untracked, so only a registered one is in allTokens: any other counts
        // under market=other, as an unregistered tracked token would.
        for (const id of refused) if (!all.has(id)) all.set(id, labels.ofToken(id));
        for (const [tokenId, l] of all) this.inc(l, refused.has(tokenId) ? 1 : 0);
      },
    }),
    age: new Gauge({
      name: "mm_book_age_seconds",
      help: "Seconds since the token's book last applied a frame (since tracking began if none); max under market=other.",
      labelNames: ["market", "outcome"] as const,
      registers,
      collect() {
        this.reset();
        const now = clock.now();
        const worst = new MaxByLabels();
        for (const [tokenId, l] of allTokens()) {
          const st = stateOf(tokenId);
          if (st !== undefined) worst.add(l, Math.max(0, now - (st.lastUpdateTs ?? st.since)) / 1_000);
        }
        worst.setOn(this);
      },
    }),
    spread: new Gauge({
      name: "mm_book_spread",
      help: "Best ask minus best bid, in price units (USDC per share); max under market=other.",
      labelNames: ["market", "outcome"] as const,
      registers,
      collect() {
        this.reset();
        const worst = new MaxByLabels();
        topOfBook((l, spread) => worst.add(l, spread), "spread");
        worst.setOn(this);
      },
    }),
    mid: new Gauge({
      name: "mm_book_mid",
      help: "Mid price (best bid + best ask) / 2 in price units; absent under market=other and for one-sided books.",
      labelNames: ["market", "outcome"] as const,
      registers,
      collect() {
        this.reset();
        topOfBook((l, mid) => {
          if (l.market !== "other") this.set(l, mid);
        }, "mid");
      },
    }),
  };
  return families;

  /**
   * Registered tokens, then tracked ones never registered (under market=other); not a retired book
   * (a settled market's): its series go, so that the dashboards' shares count the books watched.
   */
  function allTokens(): Map<string, MarketOutcome> {
    const out = new Map<string, MarketOutcome>();
    const trackers = [...sources.trackers];
    for (const [id, l] of labels.tokens()) {
      if (!trackers.some((t) => t.retired?.(id) === true)) out.set(id, l);
    }
    for (const t of sources.trackers)
      for (const id of t.tokens()) if (!out.has(id)) out.set(id, labels.ofToken(id));
    return out;
  }

  function stateOf(tokenId: string) {
    for (const t of sources.trackers) {
      const s = t.state(tokenId);
      if (s !== undefined) return s;
    }
    return undefined;
  }

  function topOfBook(fn: (l: MarketOutcome, v: number) => void, what: "spread" | "mid") {
    for (const [tokenId, l] of allTokens()) {
      for (const t of sources.trackers) {
        const book = t.book(tokenId);
        const bid = book?.bestBid();
        const ask = book?.bestAsk();
        if (bid === undefined || ask === undefined) continue;
        fn(l, what === "spread" ? fromMicro(ask.price - bid.price) : fromMicro((ask.price + bid.price) / 2));
        break;
      }
    }
  }
}

type CounterField = keyof BookCounters;
type MarketOutcome = TokenLabels;

/** The families bookFamilies returns. */
export type BookFamilies = ReturnType<typeof bookFamilies>;
