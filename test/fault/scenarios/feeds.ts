import { expect } from "vitest";
import type { Address } from "../../../src/core/types.js";
import { toWei, weiToString } from "../../../src/core/wei.js";
import type { Scenario } from "../../../src/mock/scenario/types.js";
import { rest, SCENARIO, waitFor } from "../../integration/daemon/support.js";
import { parseExposition, sumOf } from "../../unit/observability/exposition.js";
import { ARG, FRA, pause, type Rig, startRig, WAIT_MS } from "../harness.js";
import { expectInvariants } from "../invariants.js";
import type { FaultScenario } from "../scenario.js";

const TAKER = SCENARIO.wallets[1]?.address.toLowerCase() as Address;

const minWei = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** Milliseconds of the log record (pino `time`) whose message contains `text`, if any. */
function loggedAt(records: Record<string, unknown>[], text: string): number | undefined {
  const r = records.find((x) => String(x.msg).includes(text));
  return r === undefined ? undefined : Date.parse(String(r.time));
}

export const marketSocketDrop: FaultScenario = {
  name: "market socket drop",
  fault: "drop-sockets {gateway: market}",
  async run(row) {
    const rig = await startRig();
    try {
      // startRig waited for every quote's answer: the bot holds each by orderId, so each is pulled.
      const live = rig.venue.open();
      const t0 = Date.now();
      const { dropped } = await rig.admin("drop-sockets", { gateway: "market" });
      expect(dropped).toBe(1);
      // Frames were lost: every book is resyncing, so every quote resting at the drop is pulled
      // (its price came from a book the bot no longer trusts); new ones follow the resnapshot.
      await waitFor(
        () => live.every((o) => o.endedAt !== undefined),
        WAIT_MS,
        "every quote of the drop pulled",
      );
      const pulledMs = Math.max(...live.map((o) => (o.endedAt ?? 0) - t0));
      await waitFor(
        () => rig.logs.text().includes("/ws/market reconnected") && rig.quoting(),
        WAIT_MS,
        "quotes back after the reconnect and resnapshot",
      );
      row.recoveryMs = Date.now() - t0;
      expect(rig.logs.text()).not.toContain("/ws/user link down");
      await rig.reconciles(2);
      const stalled = rig.stall.within(t0, t0 + pulledMs);
      expectInvariants(
        row,
        rig.verdicts(),
        `${live.length} quotes pulled in ${pulledMs} ms (event loop stalled ${stalled} ms of it)`,
      );
    } finally {
      await rig.close();
    }
  },
};

export const userSocketDrop: FaultScenario = {
  name: "user socket drop, fills in the outage",
  fault: "drop-sockets {gateway: user} + 2 taker fills",
  async run(row) {
    const rig = await startRig();
    try {
      rig.mock.context.venue.credit(TAKER, ARG.yesTokenId, toWei("100"));
      const t0 = Date.now();
      await rig.admin("drop-sockets", { gateway: "user" });
      await waitFor(
        () => loggedAt(rig.logs.records(), "/ws/user link down"),
        WAIT_MS,
        "the bot to see the drop",
      );
      // While /ws/user is down a taker sells into our best YES bid and buys our best NO ask: no
      // user_fill reaches the bot; only the REST backfill can tell it.
      const ours = rig.venue.open();
      const bestBid = ours
        .filter((o) => o.tokenId === ARG.yesTokenId && o.side === "buy")
        .sort((a, b) => Number(b.price - a.price))[0];
      const bestAsk = ours
        .filter((o) => o.tokenId === ARG.noTokenId && o.side === "sell")
        .sort((a, b) => Number(a.price - b.price))[0];
      if (bestBid === undefined || bestAsk === undefined) throw new Error("no best quotes to hit");
      const filledAt = Date.now();
      // Sizes within each quote's remainder, so that each taker order fills exactly one quote of ours.
      const sold = minWei(bestBid.remaining, toWei("4"));
      const bought = minWei(bestAsk.remaining, toWei("3"));
      rest(rig.mock, ARG, "sell", weiToString(bestBid.price), weiToString(sold), "YES", TAKER);
      rest(rig.mock, ARG, "buy", weiToString(bestAsk.price), weiToString(bought), "NO", TAKER);
      const fills = () => rig.events.filter((e) => e.type === "fill");
      await waitFor(() => fills().length === 2, WAIT_MS, "both outage fills in the engine");
      // The periodic reconcile or the one after the reconnect, whichever comes first, backfills them.
      const back = await waitFor(
        () => loggedAt(rig.logs.records(), "/ws/user reconnected"),
        WAIT_MS,
        "the user gateway back",
      );
      row.recoveryMs = Date.now() - t0;
      expect(filledAt).toBeLessThan(back); // the fills really happened during the outage
      for (const f of fills()) expect(f.type === "fill" && f.source).toBe("backfill");
      expect(rig.daemon.engine.positionOf(ARG.yesTokenId)).toBe(sold);
      expect(rig.daemon.engine.positionOf(ARG.noTokenId)).toBe(-bought);
      await waitFor(() => rig.quoting(), WAIT_MS, "quoting on every token");
      await rig.reconciles(2);
      expectInvariants(row, rig.verdicts(), "2 outage fills, both backfilled from REST");
    } finally {
      await rig.close();
    }
  },
};

export const bookSeqGap: FaultScenario = {
  name: "book seq gap",
  fault: "skip-seq {tokenId: ARG YES}",
  async run(row) {
    const rig = await startRig();
    try {
      const tracker = rig.daemon.feeds.market.tracker;
      const gapsBefore = tracker.counters.gaps;
      const t0 = Date.now();
      await rig.admin("skip-seq", { tokenId: ARG.yesTokenId });
      // The next frame of the token shows the gap: the other trader's new level makes one.
      rest(rig.mock, ARG, "buy", "0.40", "5");
      await waitFor(() => tracker.counters.gaps > gapsBefore, WAIT_MS, "the gap detected");
      const span = await waitFor(
        () => rig.spans.find((s) => s.tokenId === ARG.yesTokenId && s.from >= t0),
        WAIT_MS,
        "the YES book leaving synced",
      );
      await waitFor(() => span.to !== undefined, WAIT_MS, "the YES book resnapshotted");
      await waitFor(() => rig.quoting(), WAIT_MS, "quoting again");
      row.recoveryMs = Date.now() - t0;
      expect(tracker.state(ARG.yesTokenId)?.status).toBe("synced");
      await rig.reconciles(2);
      const resyncMs = (span.to ?? 0) - span.from;
      expectInvariants(row, rig.verdicts(), `gap → resnapshot in ${resyncMs} ms`);
    } finally {
      await rig.close();
    }
  },
};

/** The scenario with a full book_update every 100 ms: books that tick often enough to be judged silent. */
const TICKING: Scenario = { ...SCENARIO, timing: { ...SCENARIO.timing, bookUpdateIntervalMs: 100 } };

export const silentFeed: FaultScenario = {
  name: "silent feed",
  fault: "silence-feed {tokenId: ARG YES}, off after 1.5 s",
  async run(row) {
    // The stall detector's live defaults (floor 60 s, 20 samples) are for a real venue; here a book
    // ticking every 100 ms is judged silent after max(5 × its mean interval, 600 ms).
    const rig = await startRig({
      scenario: TICKING,
      feedTuning: { tracker: { stall: { floorMs: 600, k: 5, minSamples: 5, checkEveryMs: 50 } } },
    });
    try {
      const tracker = rig.daemon.feeds.market.tracker;
      await waitFor(() => tracker.counters.updates >= 12, WAIT_MS, "the books' own rate learnt");
      const t0 = Date.now();
      await rig.admin("silence-feed", { tokenId: ARG.yesTokenId, on: true });
      await waitFor(
        () => tracker.state(ARG.yesTokenId)?.reason === "book_silent",
        WAIT_MS,
        "the silent book judged stale",
      );
      const stale = rig.spans.filter((s) => s.tokenId === ARG.yesTokenId).at(-1);
      if (stale === undefined || stale.to !== undefined) throw new Error("no open stale span");
      const yes = () => rig.venue.open().filter((o) => o.tokenId === ARG.yesTokenId).length;
      await waitFor(() => yes() === 0, WAIT_MS, "the stale book's quotes cancelled");
      const pulledMs = Date.now() - stale.from;
      // The feed stays silent: nothing is quoted on it, while the NO book (not silent) keeps its quotes.
      await pause(1_500 - (Date.now() - stale.from));
      expect(yes()).toBe(0);
      expect(rig.quoting([ARG.noTokenId])).toBe(true);
      const restoredAt = Date.now();
      await rig.admin("silence-feed", { tokenId: ARG.yesTokenId, on: false });
      await waitFor(() => stale.to !== undefined && rig.quoting(), WAIT_MS, "resynced and quoting again");
      row.recoveryMs = Date.now() - restoredAt;
      await rig.reconciles(2);
      expectInvariants(
        row,
        rig.verdicts(),
        `judged stale ${stale.from - t0} ms into the silence, its quotes pulled ${pulledMs} ms later`,
      );
    } finally {
      await rig.close();
    }
  },
};

/** mm_book_refused as the run's /metrics would serve it, for one token (or summed over all). */
async function refusedGauge(rig: Rig, match: Record<string, string> = {}): Promise<number> {
  return sumOf(parseExposition(await rig.metrics.registry.metrics()), "mm_book_refused", match);
}

export const bookRefused: FaultScenario = {
  name: "book refused",
  fault:
    "refuse-book {tokenIds: [ARG NO], code: invalid_params} + drop-sockets {gateway: market}, later lifted",
  async run(row) {
    // The refused book is asked for again after 1 s, then every 2 s (default 5 s doubling to 5 min).
    const rig = await startRig({
      markets: [ARG, FRA],
      feedTuning: { recheck: { baseMs: 1_000, maxMs: 2_000 } },
    });
    try {
      const refused = ARG.noTokenId;
      const others = rig.tokens.filter((t) => t !== refused);
      const tracker = rig.daemon.feeds.market.tracker;
      expect(await refusedGauge(rig)).toBe(0);
      // Subscriptions already held keep their feed: the refusal bites on the resubscribe after a drop.
      await rig.admin("refuse-book", { tokenIds: [refused], code: "invalid_params" });
      const t0 = Date.now();
      await rig.admin("drop-sockets", { gateway: "market" });
      const onRefused = () => rig.venue.open().filter((o) => o.tokenId === refused).length;
      // invalid_params is final (refusal-policy.ts): the book is untracked and marked refused; it is
      // asked for again later (refused-books.ts), refused again while the fault stands, so its
      // quotes, pulled at the drop like every other, do not come back meanwhile.
      // Every quote was pulled at the drop (market socket drop): four placed since, on each other book.
      const quotingAgain = () => {
        const fresh = rig.venue.open().filter((o) => o.placedAt >= t0);
        return others.every((t) => fresh.filter((o) => o.tokenId === t).length >= 4);
      };
      await waitFor(
        () => tracker.refused().includes(refused) && onRefused() === 0 && quotingAgain(),
        WAIT_MS,
        "the NO book refused, its quotes off, the other books quoting again",
      );
      row.recoveryMs = Date.now() - t0;
      expect(tracker.refused()).toEqual([refused]);
      expect(tracker.state(refused)).toBeUndefined();
      expect(await refusedGauge(rig, { market: ARG.slug, outcome: "NO" })).toBe(1);
      expect(await refusedGauge(rig)).toBe(1);
      // It stays so: nothing is placed on the refused token while the others go on quoting.
      const since = Date.now();
      await rig.reconciles(2);
      expect(onRefused()).toBe(0);
      expect(rig.placeSent.filter((p) => p.tokenId === refused && p.at >= since)).toEqual([]);
      expect(rig.quoting(others)).toBe(true);
      expect(rig.logs.text()).toContain("/ws/market reconnected");
      // The first re-ask comes 5 s after the refusal (refused-books.ts), which two reconciles may not span.
      await waitFor(
        () => rig.logs.text().includes("token_book still refused (invalid_params)"),
        WAIT_MS,
        "the refused book asked for again and refused again",
      );
      expect(onRefused()).toBe(0);
      // The server takes the token again: the next try subscribes it, and the book is quoted again.
      await rig.admin("refuse-book", { tokenIds: [refused], code: "invalid_params", on: false });
      const lifted = Date.now();
      await waitFor(
        () => tracker.refused().length === 0 && onRefused() > 0,
        WAIT_MS,
        "the NO book subscribed again and quoted",
      );
      const backMs = Date.now() - lifted;
      expect(await refusedGauge(rig)).toBe(0);
      expect(rig.logs.text()).toContain("token_book subscription accepted again after its refusal");
      expectInvariants(
        row,
        rig.verdicts(),
        `refused in ${row.recoveryMs} ms, mm_book_refused 1 on it, 3 other books quoting; quoted again ${backMs} ms after the server took it back`,
      );
    } finally {
      await rig.close();
    }
  },
};
