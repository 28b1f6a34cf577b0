import { describe, expect, it } from "vitest";
import type { Clock } from "../../../src/core/clock.js";
import type { SimClock } from "../../../src/core/sim-clock.js";
import { toWei } from "../../../src/core/wei.js";
import { USDC } from "../../../src/venue/ledger.js";
import { type ConfiguredStrategy, parseStrategyConfig } from "../../../strategies/registry.js";
import type { StrategyContext } from "../../../strategies/types.js";
import { BANDS, BOT, Harness, T0 } from "./support/harness.js";

/*
 * engine.requoteIntervalMs: quoting steps run on events, but a strategy that reads the clock quotes
 * something else as time passes on a quiet book. Every interval, the tokens whose last step read the
 * clock are stepped again; the others are not touched (requote-timer.ts).
 */

interface Watched extends ConfiguredStrategy {
  /** The clock time of each call (read from the harness's clock: ctx.nowMs would be a read of its own). */
  readonly at: number[];
  now: () => number;
}

function watched(config: unknown, read?: (ctx: StrategyContext) => void): Watched {
  const inner = parseStrategyConfig(config);
  const s: Watched = {
    name: inner.name,
    params: inner.params,
    at: [],
    now: () => Number.NaN,
    quote(ctx) {
      s.at.push(s.now());
      read?.(ctx);
      return inner.quote(ctx);
    },
  };
  return s;
}

/*
 * A–S on the market's close 60 s after T0, σ fixed, no inventory: δ = γσ²τ + (2/γ)ln(1 + γ/k)
 * = 0.001·τ + 0.002, around the crowd's mid 0.50, δ/2 = 0.0005·τ + 0.001. At τ = 60 s the quotes are
 * 0.46 / 0.54 (0.031 from the mid, tick 0.01); from τ = 38 s (0.02 from it) on, 0.48 / 0.52. The
 * crowd's touch, 0.40 / 0.60, never moves.
 */
const AS = {
  name: "avellaneda-stoikov",
  params: { gamma: 2, k: 1000, orderSize: "10", sigma: Math.sqrt(0.0005) },
};

/** The engine's timers set with a delay of `ms` (the requote timer's period), over the harness's clock. */
function timersOf(ms: number): { clock: (c: SimClock) => Clock; set: () => number } {
  let set = 0;
  return {
    clock: (c) => ({
      now: () => c.now(),
      setTimer: (delayMs, fn) => {
        if (delayMs === ms) set++;
        return c.setTimer(delayMs, fn);
      },
      cancelTimer: (id) => c.cancelTimer(id),
    }),
    set: () => set,
  };
}

/**
 * A harness quoting `strategy` on one token, the crowd's touch 0.40 / 0.60, its market closing
 * `closesInMs` after T0; the engine not started (the test arranges the exchange first).
 */
function rigged(
  strategy: Watched,
  requoteIntervalMs: number,
  more: { risk?: unknown; engineClock?: ((c: SimClock) => Clock) | undefined; closesInMs?: number } = {},
) {
  const { risk, engineClock, closesInMs = 60_000 } = more;
  const h = new Harness({
    configured: strategy,
    closesAt: () => T0 + closesInMs,
    options: { requoteIntervalMs },
    ...(risk === undefined ? {} : { risk }),
    ...(engineClock === undefined ? {} : { engineClock }),
  });
  strategy.now = () => h.clock.now();
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.40", "0.60");
  return { h, yes };
}

/** rigged(), started. */
async function started(
  strategy: Watched,
  requoteIntervalMs: number,
  risk?: unknown,
  engineClock?: (c: SimClock) => Clock,
) {
  const r = rigged(strategy, requoteIntervalMs, { risk, engineClock });
  await r.h.engine.start();
  await r.h.run();
  return r;
}

describe("engine: time-driven requotes (engine.requoteIntervalMs)", () => {
  it("steps A–S on an unchanging book every interval: its spread shrinks with T − t", async () => {
    const s = watched(AS);
    const { h, yes } = await started(s, 1_000);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.46 10", "sell 0.54 10"]);
    const start = h.clock.now();
    s.at.length = 0;
    await h.run(40_000); // τ: 60 s → 20 s, the book never changes
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.48 10", "sell 0.52 10"]);
    // One step per interval on the timer (and those of the requotes' answers, at the same instants).
    const times = [...new Set(s.at)];
    expect(times).toEqual(Array.from({ length: 40 }, (_, i) => start + (i + 1) * 1_000));
    // Each requote went out at a timer instant.
    const requotes = h.eventsOf("quote").filter((e) => e.atMs > start);
    expect(requotes.length).toBeGreaterThan(0);
    for (const e of requotes) expect((e.atMs - start) % 1_000).toBe(0);
  });

  it("quotes A–S at the τ of the last timer step: stale by less than one period", async () => {
    const s = watched(AS);
    const { h, yes } = await started(s, 5_000);
    // The quotes would be 0.48 / 0.52 from τ = 38 s (T0 + 22 s); the last step, at T0 + 20 s (τ = 40 s,
    // 0.021 from the mid), quoted 0.47 / 0.53, and they stay until the next one, at T0 + 25 s.
    await h.run(24_999);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    await h.run(1);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.48 10", "sell 0.52 10"]);
  });

  it("0 turns it off: A–S keeps the quotes of its last event on a quiet book", async () => {
    const s = watched(AS);
    const { h, yes } = await started(s, 0);
    const calls = s.at.length;
    await h.run(40_000);
    expect(s.at.length).toBe(calls);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.46 10", "sell 0.54 10"]);
  });

  it("never steps bands on an unchanging book: no call, no request, no decision counted again", async () => {
    // Orders clipped to 5 shares: a step the memo skipped would still report its two clip decisions.
    const s = watched(BANDS);
    const { h, yes } = await started(s, 1_000, { order: { maxSize: "5" } });
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 5", "sell 0.53 5"]);
    const calls = s.at.length;
    const writes = () =>
      h.exchange.calls.filter((c) => ["place", "cancel", "cancel_all"].includes(c.op)).length;
    const sent = writes();
    // The reconciler's periodic run (30 s here) stays out of the window.
    const events = h.events.length;
    await h.run(20_000);
    expect(s.at.length).toBe(calls);
    expect(writes()).toBe(sent);
    expect(h.events.length).toBe(events);
  });

  it("does not step a strategy that read σ alone while σ has not moved (a quiet book)", async () => {
    const s = watched(BANDS, (ctx) => ctx.volatility);
    const { h } = await started(s, 1_000, { order: { maxSize: "5" } });
    const calls = s.at.length;
    const events = h.events.length;
    await h.run(20_000);
    expect(s.at.length).toBe(calls);
    // Not even stepped into the memo, which would report the step's clip decisions again.
    expect(h.events.length).toBe(events);
  });

  /*
   * review18 r2-replay: σ has no decay in time and moves only on a book frame, which steps its token
   * anyway; a step that read σ but not the clock (A–S with horizonSeconds and an estimated σ) armed
   * the timer, which then fired every period for the whole run without ever stepping the token.
   */
  it("is never armed by a strategy that read σ but not the clock", async () => {
    const s = watched(BANDS, (ctx) => ctx.volatility);
    const timers = timersOf(777);
    const { h, yes } = await started(s, 777, undefined, timers.clock);
    await h.run(20_000);
    // A book change (σ's only mover) steps the token by itself, and still arms nothing.
    const calls = s.at.length;
    h.crowdQuote(yes, "0.41", "0.60");
    await h.run(20_000);
    expect(s.at.length).toBeGreaterThan(calls);
    expect(timers.set()).toBe(0);
    // Control: A–S without horizonSeconds reads the clock and arms it.
    const as = timersOf(777);
    await started(watched(AS), 777, undefined, as.clock);
    expect(as.set()).toBeGreaterThan(0);
  });

  /*
   * A placement refused outright used to take a clock-reading token off the timer: its step sent
   * intents (nothing remembered), and only an accepted placement or a cancel's answer stepped it
   * again, so on a quiet book the level stayed empty until the next market event.
   */
  it("steps A–S again at the next period after its placements were refused outright", async () => {
    const s = watched(AS);
    const { h, yes } = rigged(s, 1_000);
    h.exchange.scriptPlace(
      { kind: "reject", code: "invalid_amounts" },
      { kind: "reject", code: "invalid_amounts" },
    );
    await h.engine.start();
    await h.run();
    expect(h.eventsOf("place_outcome").map((e) => e.outcome)).toEqual(["rejected", "rejected"]);
    expect(h.botQuotes(yes)).toEqual([]);
    const start = h.clock.now();
    await h.run(1_000); // one period, the book unchanged
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.46 10", "sell 0.54 10"]);
    expect(s.at.filter((t) => t > start)[0]).toBe(start + 1_000);
  });

  /*
   * A refusal that persists (here the bid: the wallet cannot fund it, insufficient_funds) was
   * re-sent once a period on a quiet book, each counted towards the wallet's error-rate halt (10 in
   * 30 s): it tripped in ~11 s, and again after each halt. The timer's re-steps now back off, doubling
   * up to 30 s, and a fill starts the run over (a book frame steps the token itself).
   */
  it("backs off re-stepping a token whose placement keeps being refused: no error-rate halt", async () => {
    // σ so small that the quotes (0.49 / 0.51) do not move by a tick in the minutes watched.
    const s = watched({ ...AS, params: { ...AS.params, sigma: Math.sqrt(0.000001) } });
    const { h, yes } = rigged(s, 1_000, { closesInMs: 3_600_000 });
    const { available } = h.venue.balances(BOT).usdc;
    h.venue.debit(BOT, USDC, available - toWei("1", "usdc")); // a 10-share bid needs 4.90
    await h.engine.start();
    await h.run();
    const refusedAt = () =>
      h
        .eventsOf("place_outcome")
        .filter((e) => e.code === "insufficient_funds")
        .map((e) => (e.atMs - T0) / 1_000);
    const halts = () => h.eventsOf("decision").filter((e) => e.decision.reason === "error_rate_halt");
    await h.run(60_000);
    expect(h.botQuotes(yes)).toEqual(["sell 0.51 10"]);
    // At start (its step, and the step on the ask's answer), then 1, 2, 4, 8 and 16 s apart: 7 in
    // the minute (it was 62), and never 10 in 30 s.
    expect(refusedAt()).toEqual([0, 0, 1, 3, 7, 15, 31]);
    expect(halts()).toEqual([]);
    await h.run(60_000);
    expect(refusedAt().slice(7)).toEqual([61, 91]); // capped at 30 s apart
    // A book change steps the token (re-sent on it: the frame's step) but does not start the run
    // over (our own orders showed as book changes too): the timer's step due at 121 (91 + 30) is
    // the next, then none within 30 s.
    h.crowdOrder(yes, "buy", "0.30");
    await h.run(3_000);
    expect(refusedAt().slice(9)).toEqual([120, 121]);
    expect(halts()).toEqual([]);
  });

  it("stops with the engine", async () => {
    const s = watched(AS);
    const { h } = await started(s, 1_000);
    await h.engine.stop("test", 5_000);
    await h.run();
    const calls = s.at.length;
    // Nothing left on the clock: a stopped engine keeps no timer of its own running.
    expect(h.clock.nextDeadline()).toBeUndefined();
    await h.run(10_000);
    expect(s.at.length).toBe(calls);
  });
});
