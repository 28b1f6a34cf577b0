import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import type { EngineOptions } from "../../../src/engine/engine-deps.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { TradeRecord } from "../../../src/exchange/types.js";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { DEFAULT_TRADE_PAGES } from "../../../src/execution/reconcile-run.js";
import { MISSED_SEARCH_MAX_PAGES } from "../../../src/execution/restored-fees.js";
import { Harness, T0 } from "./support/harness.js";
import { harnessBidFill } from "./support/harness-records.js";

/*
 * The spec shows no order for GET /api/me/trades. Served oldest first, a history longer than the
 * reconcile's page bound (50 pages of 200) was read from its start by every reconcile and cut at the
 * bound, before this session's trades: a fill the stream lost was never backfilled, its fee never
 * booked. A paging seen running oldest first now keeps where it stopped (in memory): a capped one is
 * read on from its cursor by the next reconcile, and once at the end each reconcile starts at the
 * last page before its cut-off. A history served newest first is read from its front, as before.
 */

const PAGE = 200;

interface History {
  /** The cursor of each read ("" for none), in order. */
  readonly reads: string[];
  /** Cursors the exchange refuses (400) the next time they are sent, as after a deploy changing their encoding. */
  readonly refused: Set<string>;
}

/**
 * The bot's trades (the venue's) behind `oldPages` pages of older trades, paged oldest first (or
 * newest first) with the offset as cursor.
 */
function history(h: Harness, oldPages: number, order: "oldest" | "newest" = "oldest"): History {
  const venueTrades = h.exchange.trades.bind(h.exchange);
  const before = Array.from({ length: oldPages * PAGE }, (_, i) =>
    harnessBidFill(`t-old-${i}`, `o-old-${i}`, T0 - 86_400_000 + i * 1_000),
  );
  const out: History = { reads: [], refused: new Set() };
  h.exchange.trades = async (opts) => {
    const cursor = opts.cursor ?? "";
    out.reads.push(cursor);
    if (out.refused.delete(cursor)) {
      throw new ExchangeError({
        code: "invalid_cursor",
        message: "cursor not recognised",
        outcome: "rejected",
        endpoint: "GET /api/me/trades",
        httpStatus: 400,
      });
    }
    const mine: TradeRecord[] = [];
    let c: string | undefined;
    do {
      const p = await venueTrades({ limit: PAGE, ...(c === undefined ? {} : { cursor: c }) });
      mine.push(...p.trades);
      c = p.nextCursor ?? undefined;
    } while (c !== undefined);
    // The venue serves newest first.
    const rows = order === "oldest" ? [...before, ...mine.reverse()] : [...mine, ...before.reverse()];
    const i = cursor === "" ? 0 : Number(cursor);
    const n = opts.limit ?? PAGE;
    return { trades: rows.slice(i, i + n), nextCursor: i + n < rows.length ? String(i + n) : null };
  };
  return out;
}

async function quoting(options: Partial<EngineOptions> = {}): Promise<{ h: Harness; yes: string }> {
  const h = new Harness({ options });
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  return { h, yes };
}

/** A fill of the bot's 0.47 bid (4 shares) that the user stream loses. */
async function lostFill(h: Harness, yes: string): Promise<void> {
  h.dropFills = true;
  h.take(yes, "sell", "0.47", "104");
  await h.run();
  h.dropFills = false;
  h.crowdQuote(yes, "0.48", "0.52");
}

const backfilled = (h: Harness) => h.eventsOf("fill").filter((e) => e.source === "backfill").length;

describe("a trade history served oldest first, longer than the page bound", () => {
  it("backfills a fill the stream lost: the next reconcile reads on from where the last one stopped", async () => {
    const { h, yes } = await quoting();
    const hist = history(h, DEFAULT_TRADE_PAGES + 10);
    await h.engine.start();
    await h.run();
    // The start-up reconcile: 50 pages of old trades, cut at the bound.
    expect(hist.reads).toHaveLength(DEFAULT_TRADE_PAGES);
    await lostFill(h, yes);
    const before = hist.reads.length;
    h.engine.onReconnect();
    await h.run(1_000);
    expect(hist.reads[before]).toBe(String(DEFAULT_TRADE_PAGES * PAGE));
    expect(backfilled(h)).toBe(1);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    // Caught up: each later reconcile starts near the end (before its cut-off), and a fill lost
    // since is backfilled by the next one, a page or two read.
    await h.run(30_000);
    await lostFill(h, yes);
    const next = hist.reads.length;
    h.engine.onReconnect();
    await h.run(1_000);
    expect(backfilled(h)).toBe(2);
    expect(hist.reads.length - next).toBeLessThanOrEqual(2);
    expect(hist.reads[next]).not.toBe("");
  });

  it("applies a lost fill reached only after the cut-off and the compaction floor passed it", async () => {
    // A lookback of 1 s: by the third reconcile (60 s on) the ordinary cut-off is far past the fill.
    const { h, yes } = await quoting({ tradeLookbackMs: 1_000 });
    history(h, 2 * DEFAULT_TRADE_PAGES + 10);
    await h.engine.start();
    await h.run();
    await lostFill(h, yes);
    await h.run(30_000);
    expect(backfilled(h)).toBe(0);
    await h.run(30_000);
    expect(backfilled(h)).toBe(1);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
  });

  it("reads from the start again, with a warning, when the exchange refuses the kept cursor", async () => {
    const { h, yes } = await quoting();
    const hist = history(h, DEFAULT_TRADE_PAGES + 10);
    await h.engine.start();
    await h.run();
    hist.refused.add(String(DEFAULT_TRADE_PAGES * PAGE));
    await lostFill(h, yes);
    const before = hist.reads.length;
    h.engine.onReconnect();
    await h.run(1_000);
    expect(hist.reads.slice(before, before + 2)).toEqual([String(DEFAULT_TRADE_PAGES * PAGE), ""]);
    const warned = h.logs.records().filter((r) => Number(r.level) === 40 && /cursor/.test(String(r.msg)));
    expect(warned).toHaveLength(1);
    // The fresh read is cut at the bound again; the one after reads on and finds the fill.
    expect(backfilled(h)).toBe(0);
    await h.run(30_000);
    expect(backfilled(h)).toBe(1);
  });
});

describe("an earlier run's fill awaiting its fee, on a history served oldest first", () => {
  it("keeps waiting while the reconciles read on to it, past the start-up bound and the fee wait", async () => {
    // Run 1's last fill, 30 minutes before this start (past RESTORED_FEE_WAIT_MS), journaled without its fee.
    const fill: Fill = {
      ...{ tradeId: "t-last", orderId: "o-last", clientOrderId: undefined, tokenId: "11" },
      ...{ side: "buy", priceMicro: 400_000, sizeMicro: 3_000_000n, tsMs: T0 - 1_800_000 },
    };
    const accounts = new Map([["11", applyTrade(EMPTY_ACCOUNT, "buy", 400_000, 3_000_000n)]]);
    const h = new Harness({ options: { restore: { accounts, orders: new Map(), feePending: [fill] } } });
    h.crowdQuote("11", "0.48", "0.52");
    // One trade a page, oldest first; run 1's fill, its fee settled since, on page 510.
    const rows = Array.from({ length: MISSED_SEARCH_MAX_PAGES + 20 }, (_, i) =>
      harnessBidFill(`t-other-${i}`, `o-other-${i}`, T0 - 3_600_000 + i * 1_000),
    );
    rows[MISSED_SEARCH_MAX_PAGES + 10] = harnessBidFill("t-last", "o-last", fill.tsMs, "0.06");
    h.exchange.trades = async (opts) => {
      const i = opts.cursor === undefined ? 0 : Number(opts.cursor);
      return { trades: rows.slice(i, i + 1), nextCursor: i + 1 < rows.length ? String(i + 1) : null };
    };
    await h.engine.start();
    await h.run(1_000);
    expect(h.eventsOf("fee")).toEqual([]);
    await h.engine.reconcileNow();
    expect(h.eventsOf("fee").map((e) => [e.fill.tradeId, e.fee])).toEqual([
      ["t-last", { asset: "shares", amountMicro: 60_000n }],
    ]);
  });
});

describe("a trade history served newest first", () => {
  it("is read from its front by every reconcile, as before", async () => {
    const { h, yes } = await quoting();
    const hist = history(h, DEFAULT_TRADE_PAGES + 10, "newest");
    await h.engine.start();
    await h.run();
    await lostFill(h, yes);
    const before = hist.reads.length;
    h.engine.onReconnect();
    await h.run(1_000);
    expect(backfilled(h)).toBe(1);
    // One page: it reaches before the cut-off.
    expect(hist.reads.slice(before)).toEqual([""]);
  });
});
