import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { TokenMarket } from "../../../src/core/trading.js";
import type { Address } from "../../../src/core/types.js";
import { toWei } from "../../../src/core/wei.js";
import { createEngine, type TradingEngine } from "../../../src/engine/engine.js";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import type { MarketScenario } from "../../../src/mock/scenario/types.js";
import { parseRiskConfig } from "../../../src/risk/config.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { USDC } from "../../../src/venue/ledger.js";
import { wireLevels } from "../../../src/venue/wire.js";
import { type ConfiguredStrategy, parseStrategyConfig } from "../../../strategies/registry.js";
import { mulberry32 } from "../../support/mulberry32.js";
import { testSign } from "../../unit/engine/support/sign.js";
import { VenueExchange } from "../../unit/engine/support/venue-exchange.js";
import { ChaosProxy, type ChaosRates } from "./chaos-proxy.js";
import { FLOW_WALLET, MM_WALLET, type Mock, marketClient, startMock, until } from "./harness.js";

/*
 * End to end, seeded: the mock exchange's venue mutates the books of every open market's tokens at
 * random (orders placed by two wallets and by mm's engine itself, cancelled, crossing and matching),
 * its /ws/market reaches mm's GatewayClient through a proxy that drops, duplicates, reorders and
 * corrupts token_book frames, holds snapshots back, loses snapshot requests and cuts the connection,
 * and mm unsubscribes and resubscribes books now and then. Checked throughout:
 * - whenever the tracker says a book is synced, it equals the venue's book at the tracker's seq
 *   (the oracle records the venue's book at every seq the feed hands out);
 * - the engine's strategy is only ever asked to quote a book the tracker says is quotable, and that
 *   book is the venue's at its seq;
 * - every malformed whole frame is counted by the gateway, and no malformed frame is ever applied;
 * - once the faults stop, every book converges on the venue's.
 * MM_CHAOS_SEED=<n> reruns a seed (a failure names its), not the same run: the proxy draws in the
 * order frames and snapshot requests cross real sockets, and mm's own quotes (which move the books,
 * and match the wallets' orders the mutations then pick from) follow the real-time polls that
 * drive the SimClock, so one seed gives other faults from run to run (three runs of one seed:
 * 1,560, 1,433 and 1,453 frames down). A failure that does not come back at its seed is not
 * thereby gone: rerun it a few times, with MM_CHAOS_TRACE=1.
 */

const BOT: Address = "0x00000000000000000000000000000000000000b0";
const RATES: ChaosRates = {
  drop: 0.03,
  duplicate: 0.03,
  reorder: 0.03,
  malformed: 0.03,
  slowSnapshot: 0.25,
  lostRequest: 0.1,
};
const STEPS = 120;
const trace = (s: string) => {
  if (process.env.MM_CHAOS_TRACE !== undefined) console.log(s);
};

/** The venue's book of every token at every seq the feed handed out for it. */
class Oracle {
  readonly #at = new Map<string, Map<number, string>>();
  constructor(private readonly mock: Mock) {}

  /** Records the token's book now, under the seq a client sees for it now. */
  record(tokenId: string): void {
    const snap = this.mock.ctx.venue.bookSnapshot(tokenId, 100);
    if (snap === undefined) return;
    const seq = this.mock.ctx.bookSeq.seqOf(tokenId, snap.seq);
    const per = this.#at.get(tokenId) ?? new Map<number, string>();
    this.#at.set(tokenId, per);
    per.set(seq, JSON.stringify({ bids: wireLevels(snap.bids), asks: wireLevels(snap.asks) }));
  }

  /**
   * The book at `seq`. A seq no venue change made (a periodic book_update takes one of its own)
   * holds the book of the last recorded seq before it.
   */
  at(tokenId: string, seq: number): string | undefined {
    const per = this.#at.get(tokenId);
    if (per === undefined) return undefined;
    let best = -1;
    for (const s of per.keys()) if (s <= seq && s > best) best = s;
    return best < 0 ? undefined : per.get(best);
  }
}

interface Run {
  mock: Mock;
  proxy: ChaosProxy;
  feed: MarketDataFeed;
  engine: TradingEngine;
}
let run: Run | undefined;
afterEach(async () => {
  if (run === undefined) return;
  await driven(run.mock, run.engine.stop("test end", 0)).catch(() => undefined);
  await run.feed.close();
  await run.proxy.close();
  await run.mock.close();
  run = undefined;
});

/** Awaits `p`, moving the SimClock along meanwhile (the venue's answers ride its timers). */
async function driven<T>(mock: Mock, p: Promise<T>): Promise<T> {
  let done = false;
  const out = p.finally(() => {
    done = true;
  });
  await until(() => done, "a clock-driven step", { clock: mock.clock, advanceMs: 10, timeoutMs: 10_000 });
  return out;
}

/** Real I/O until the proxy and the client have been quiet for a few polls (no frame in flight). */
async function quiesce(proxy: ChaosProxy, feed: MarketDataFeed): Promise<void> {
  const sig = () =>
    `${proxy.counts.down}/${proxy.counts.up}/${Object.values(feed.client.counters.framesByType).reduce((a, b) => a + b, 0)}`;
  let last = "";
  let same = 0;
  for (let i = 0; i < 200 && same < 3; i++) {
    await new Promise((r) => setTimeout(r, 2));
    const now = sig();
    same = now === last ? same + 1 : 0;
    last = now;
  }
}

function tokenMarket(m: MarketScenario, yes: boolean): TokenMarket {
  return {
    tokenId: yes ? m.yesTokenId : m.noTokenId,
    marketId: m.id,
    conditionId: m.conditionId,
    outcome: yes ? "YES" : "NO",
    outcomeIndex: yes ? 0 : 1,
    tickMicro: 10_000,
    minSizeMicro: 1_000_000n,
    feeTakerBps: null,
    negRisk: false,
    closesAtMs: undefined,
    status: "OPEN",
  };
}

async function chaosRun(seed: number): Promise<void> {
  // Two streams: the venue's mutations do not shift with how many frames the sockets carried.
  const rnd = mulberry32(seed);
  trace(`seed ${seed}`);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const mock = await startMock();
  const proxy = await ChaosProxy.start(mock.wsUrl, mulberry32(seed ^ 0x5eed), RATES);
  const clock = mock.clock;
  const feed = new MarketDataFeed({
    client: marketClient(mock, { url: proxy.url }),
    clock,
    tracker: { snapshotTimeoutMs: 1_000, backoff: { baseMs: 100, factor: 2, maxMs: 1_000 } },
  });
  const tracker = feed.tracker;
  const oracle = new Oracle(mock);
  const open = mock.scenario.markets.filter((m) => m.status === "OPEN");
  const markets = open.flatMap((m) => [tokenMarket(m, true), tokenMarket(m, false)]);
  const tokens = markets.map((m) => m.tokenId);
  const { venue } = mock.ctx;
  venue.credit(BOT, USDC, toWei("1000000", "usdc"));
  for (const t of tokens) venue.credit(BOT, t, toWei("100000", "shares"));
  // Registered after the mock's own feed: its offsets have moved when this reads them.
  venue.subscribe((e) => {
    if (e.type === "book_changes") oracle.record(e.tokenId);
  });
  for (const t of tokens) oracle.record(t);

  const problems: string[] = [];
  const noProblems = () => {
    if (problems.length > 0)
      throw new Error(`${problems.length} problems:\n${problems.slice(0, 5).join("\n")}`);
  };
  // The newest seq mm has received per token (the mock's seqs never go back, reconnects included).
  const received = new Map<string, number>();
  const wrongBook = (t: string, where: string) => {
    const st = tracker.state(t);
    if (st?.lastSeq === undefined) return problems.push(`${where}: ${t} has no seq`);
    const newest = received.get(t) ?? -1;
    if (st.lastSeq < newest) problems.push(`${where}: ${t} at seq ${st.lastSeq}, behind ${newest} received`);
    const got = JSON.stringify(tracker.book(t)?.toWire());
    const want = oracle.at(t, st.lastSeq);
    if (got !== want) problems.push(`${where}: ${t} at seq ${st.lastSeq}: ${got} ≠ venue ${want}`);
  };
  // After the feed's own listener: a frame's seq counts from the next frame on.
  feed.client.onEvent((e) => {
    if (!("seq" in e) || typeof e.seq !== "number" || !("tokenId" in e)) return;
    const t = String(e.tokenId);
    if (e.seq > (received.get(t) ?? -1)) received.set(t, e.seq);
  });
  tracker.onBook((b) => {
    if (tracker.state(b.tokenId)?.status === "synced") wrongBook(b.tokenId, "synced book");
  });
  tracker.onState((s) => {
    if (s.status === "synced") wrongBook(s.tokenId, "synced state");
  });

  let quotes = 0;
  const bands = parseStrategyConfig({
    name: "bands",
    params: { reference: "mid", bands: [{ margin: "0.03", size: "5" }] },
  });
  const watching: ConfiguredStrategy = {
    name: bands.name,
    params: bands.params,
    quote(ctx) {
      quotes++;
      const t = ctx.market.tokenId;
      const st = tracker.state(t);
      if (st?.quotable !== true) problems.push(`quoted ${t} from a book ${st?.status ?? "untracked"}`);
      else wrongBook(t, "quoted book");
      return bands.quote(ctx);
    },
  };
  const exchange = new VenueExchange(venue, BOT, clock);
  const engine = createEngine({
    clock,
    exchange,
    sign: async (i) => testSign(i, markets),
    markets,
    strategyFor: () => watching,
    risk: new RiskGuard(parseRiskConfig({})),
    logger: pino({ level: "silent" }),
    options: { session: "chaos", reconcileIntervalMs: 3_600_000 },
  });
  tracker.onState((s) => engine.onBookState(s));
  tracker.onBook((b) => engine.onBook(b.tokenId, b));
  run = { mock, proxy, feed, engine };

  await feed.start();
  await driven(mock, engine.start());
  await feed.subscribeBooks(tokens);
  let resubscribes = 0;
  let disconnects = 0;
  for (let step = 0; step < STEPS; step++) {
    for (let n = 1 + Math.floor(rnd() * 4); n > 0; n--) {
      const m = pick(markets);
      const wallet = rnd() < 0.5 ? MM_WALLET : FLOW_WALLET;
      if (rnd() < 0.3) {
        const mine = venue.openOrders(wallet).filter((o) => o.tokenId === m.tokenId);
        if (mine.length > 0) venue.cancel(wallet, pick(mine).id);
        continue;
      }
      const side = rnd() < 0.5 ? "buy" : "sell";
      const cents = side === "buy" ? 30 + Math.floor(rnd() * 25) : 45 + Math.floor(rnd() * 25);
      venue.place({
        wallet,
        marketId: m.marketId,
        outcome: m.outcome,
        side,
        price: toWei((cents / 100).toFixed(2)),
        quantity: toWei(String(1 + Math.floor(rnd() * 20))),
      });
    }
    clock.advanceBy(50 + Math.floor(rnd() * 250));
    for (const t of tokens) oracle.record(t); // a periodic book_update may have taken a seq
    await quiesce(proxy, feed);
    const r = rnd();
    if (r < 0.03) {
      disconnects++;
      trace(`step ${step}: disconnect`);
      const before = feed.client.counters.disconnects;
      proxy.disconnectAll();
      const back = () =>
        feed.client.counters.disconnects > before && feed.client.counters.connectionsOpen === 1;
      await until(back, "the reconnect", {
        clock,
        advanceMs: 200,
        timeoutMs: 5_000,
      });
    } else if (r < 0.06) {
      resubscribes++;
      const t = pick(tokens);
      trace(`step ${step}: resubscribe ${t}`);
      await driven(mock, feed.unsubscribeBooks([t]));
      await driven(mock, feed.subscribeBooks([t]));
    }
    await quiesce(proxy, feed);
    if (problems.length > 0) break;
  }
  noProblems();

  // The faults stop: every book must come back to the venue's, the clock driving the retries.
  trace("faults off");
  proxy.faulty = false;
  const converged = () =>
    tokens.every(
      (t) =>
        tracker.state(t)?.status === "synced" &&
        JSON.stringify(tracker.book(t)?.toWire()) === oracle.at(t, tracker.state(t)?.lastSeq ?? -1) &&
        oracle.at(t, tracker.state(t)?.lastSeq ?? -1) ===
          JSON.stringify({
            bids: wireLevels(venue.bookSnapshot(t, 100)?.bids ?? []),
            asks: wireLevels(venue.bookSnapshot(t, 100)?.asks ?? []),
          }),
    );
  await until(converged, "every book back to the venue's", { clock, advanceMs: 100, timeoutMs: 10_000 });
  noProblems();

  const c = proxy.counts;
  const gatewayMalformed = Object.values(feed.client.counters.malformed).reduce((a, b) => a + b, 0);
  // Every whole-frame corruption was counted by the gateway (and nothing else was).
  expect(gatewayMalformed).toBe(c.badFrames);
  // Every entry corruption was refused by the tracker or never looked at (stale, gapped, resyncing).
  const tc = tracker.counters;
  expect(tc.malformed + tc.droppedWhileResyncing + tc.droppedStale + tc.gaps).toBeGreaterThanOrEqual(
    c.badEntries,
  );
  // The run exercised what it claims to.
  expect(c.dropped + c.duplicated + c.reordered + c.slowSnapshots).toBeGreaterThan(0);
  expect(tc.deltas).toBeGreaterThan(50);
  expect(quotes).toBeGreaterThan(0);
  trace(`${disconnects} disconnects, ${resubscribes} resubscribes, ${quotes} quotes: ${JSON.stringify(c)}`);
}

describe("book tracking end to end: the mock's random books through a faulty /ws/market link", () => {
  it("a synced book is always the venue's at its seq, never quoted otherwise, and converges", async () => {
    const seed = Number(process.env.MM_CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
    try {
      await chaosRun(seed);
    } catch (err) {
      const what = err instanceof Error ? err.message : String(err);
      throw new Error(`book chaos run failed with MM_CHAOS_SEED=${seed}: ${what}`, { cause: err });
    }
  }, 30_000);
});
