import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { TIMED_OUT, untilDeadline } from "../../../src/engine/deadline.js";
import type { ReconcileReason } from "../../../src/engine/engine-events.js";
import { type ReconcileFailure, ReconcileScheduler } from "../../../src/engine/engine-reconcile.js";
import { sessionTrades } from "../../../src/engine/session-trades.js";
import type { TradeRecord } from "../../../src/exchange/types.js";
import type { ReconcileSource } from "../../../src/execution/reconcile-run.js";
import { settle } from "./support/harness.js";

/** A scheduler whose runs take `runMs` of simulated time and are recorded with their start times. */
function rig(
  opts: {
    runMs?: number;
    fail?: (n: number) => boolean;
    pending?: (n: number) => number;
    /** Of the run's pending orders, those left so by a failed read. */
    unread?: (n: number) => number;
    /** The failed reads, by the order each was for. */
    failing?: (n: number) => string[];
  } = {},
) {
  const clock = new SimClock(0);
  const runs: { reason: ReconcileReason; at: number }[] = [];
  const errors: ReconcileReason[] = [];
  const failures: ReconcileFailure[] = [];
  const s = new ReconcileScheduler(
    clock,
    { intervalMs: 1_000, debounceMs: 100, retryMs: 300 },
    async (reason, counted) => {
      runs.push({ reason, at: clock.now() });
      const n = runs.length;
      if ((opts.runMs ?? 0) > 0) await new Promise<void>((r) => clock.setTimer(opts.runMs ?? 0, r));
      const left = {
        pending: opts.pending?.(n) ?? 0,
        unread: opts.unread?.(n) ?? 0,
        ...(opts.failing === undefined ? {} : { failing: opts.failing(n) }),
      };
      counted(left);
      if (opts.fail?.(n) === true) throw new Error("exchange down");
      return left;
    },
    (reason, _err, failure) => {
      errors.push(reason);
      failures.push(failure);
    },
  );
  const advance = async (to: number) => {
    for (;;) {
      await settle();
      const next = clock.nextDeadline();
      if (next === undefined || next > to) break;
      clock.advanceTo(next);
    }
    clock.advanceTo(to);
    await settle();
  };
  /** The runs so far as `reason@ms`, the timelines the tests compare. */
  const timeline = () => runs.map((x) => `${x.reason}@${x.at}`);
  return { clock, s, runs, errors, failures, advance, timeline };
}

describe("ReconcileScheduler: runs on the Clock, never overlapping", () => {
  it("runs periodically, counted from the end of the previous run", async () => {
    const r = rig({ runMs: 50 });
    r.s.start();
    await r.advance(3_200);
    expect(r.runs.map((x) => x.at)).toEqual([1_000, 2_050, 3_100]);
    expect(r.runs.every((x) => x.reason === "periodic")).toBe(true);
  });

  it("debounces triggers into one run, and a trigger during a run asks for exactly one more", async () => {
    const r = rig({ runMs: 50 });
    r.s.soon("ambiguous");
    r.s.soon("ambiguous");
    r.clock.advanceBy(40);
    r.s.soon("reconnect");
    await r.advance(120);
    expect(r.runs).toEqual([{ reason: "ambiguous", at: 100 }]);
    void r.s.now("manual");
    void r.s.now("reconnect");
    await r.advance(400);
    expect(r.timeline()).toEqual(["ambiguous@100", "manual@150"]);
  });

  it("follows a failed run, or one that left unknown orders, with another after retryMs", async () => {
    const r = rig({ fail: (n) => n === 1, pending: (n) => (n === 2 ? 1 : 0) });
    await r.s.now("startup");
    await r.advance(1_000);
    expect(r.errors).toEqual(["startup"]);
    expect(r.timeline()).toEqual(["startup@0", "unresolved@300", "unresolved@600"]);
  });

  it("backs off failed runs in a row (retryMs doubling, at most the period), and a success resets it", async () => {
    // A failure that lasts (a read the exchange keeps refusing) was retried every retryMs for ever.
    const r = rig({ fail: (n) => n <= 5 || n >= 7 });
    r.s.start();
    await r.advance(6_900);
    expect(r.timeline()).toEqual([
      "periodic@1000",
      "unresolved@1300",
      "unresolved@1900",
      // The next follow-up would come no sooner than the periodic run: that one alone runs.
      "periodic@2900",
      "periodic@3900",
      "periodic@4900", // succeeds
      "periodic@5900",
      "unresolved@6200",
      "unresolved@6800",
    ]);
    expect(r.failures.map((f) => `${f.failures}:${f.retryInMs}`)).toEqual([
      "1:300",
      "2:600",
      "3:1000",
      "4:1000",
      "5:1000",
      "1:300",
      "2:600",
      "3:1000",
    ]);
  });

  it("never holds a trigger back for the backoff: a reconnect runs at its debounce", async () => {
    const r = rig({ fail: () => true });
    r.s.start();
    await r.advance(1_400); // failed at 1000 and 1300: the next follow-up is due at 1900
    r.s.soon("reconnect");
    await r.advance(2_600);
    expect(r.timeline()).toEqual(["periodic@1000", "unresolved@1300", "reconnect@1500", "periodic@2500"]);
  });

  it("follows unknown orders left unresolved after retryMs, also right after failed runs", async () => {
    const r = rig({ fail: (n) => n <= 2, pending: (n) => (n === 3 ? 1 : 0) });
    await r.s.now("startup");
    await r.advance(2_000);
    expect(r.timeline()).toEqual(["startup@0", "unresolved@300", "unresolved@900", "unresolved@1200"]);
  });

  it("backs off the follow-up of orders that only failed reads leave in doubt, not of others (s20)", async () => {
    // Runs 1–5: one order in doubt, its read failing at each; run 6: a second one, within its grace.
    const r = rig({ pending: (n) => (n <= 5 ? 1 : n === 6 ? 2 : 0), unread: (n) => (n <= 6 ? 1 : 0) });
    await r.s.now("startup");
    r.s.start();
    await r.advance(5_000);
    // retryMs, doubled at each stalled run up to the period (then the periodic run alone); a run that
    // left an order in doubt for another reason is followed after retryMs again.
    expect(r.timeline()).toEqual([
      "startup@0",
      "unresolved@300",
      "unresolved@900",
      "periodic@1900",
      "periodic@2900",
      "periodic@3900",
      "unresolved@4200",
    ]);
  });

  it("backs off each failed read by its own failures in a row: one failing for the first time is asked again after retryMs", async () => {
    // Runs 1–5: read a fails; run 6: read b fails too, for the first time (a blip); then a alone.
    const failing = (n: number) => (n === 6 ? ["a", "b"] : ["a"]);
    const r = rig({ pending: (n) => failing(n).length, unread: (n) => failing(n).length, failing });
    await r.s.now("startup");
    r.s.start();
    await r.advance(5_300);
    // Was (one count for the scheduler): run 6 backed off to the periodic run at 4900 like a's.
    // a's own backoff goes on after it (no restart at retryMs).
    expect(r.timeline()).toEqual([
      "startup@0",
      "unresolved@300",
      "unresolved@900",
      "periodic@1900",
      "periodic@2900",
      "periodic@3900",
      "unresolved@4200",
      "periodic@5200",
    ]);
  });

  it("stop cancels every timer", async () => {
    const r = rig();
    r.s.start();
    r.s.soon("ambiguous");
    r.s.stop();
    expect(r.clock.pending).toBe(0);
    await r.advance(5_000);
    expect(r.runs).toEqual([]);
  });
});

describe("untilDeadline", () => {
  it("gives the value in time, TIMED_OUT at the deadline, and leaves no timer behind", async () => {
    const clock = new SimClock(0);
    let resolve: (v: string) => void = () => {};
    const p = untilDeadline(clock, new Promise<string>((r) => (resolve = r)), 100);
    resolve("done");
    expect(await p).toBe("done");
    expect(clock.pending).toBe(0);
    const late = untilDeadline(clock, new Promise<string>(() => {}), 100);
    clock.advanceTo(100);
    expect(await late).toBe(TIMED_OUT);
  });
});

describe("sessionTrades: the trade history cut at the session start", () => {
  const trade = (id: string, createdAt: string): TradeRecord => ({
    id,
    orderId: "o1",
    marketId: "m1",
    vaultAddress: "0x0",
    fee: null,
    side: "buy",
    price: "0.5",
    quantity: "1",
    createdAt,
  });
  const pages: Record<string, { trades: TradeRecord[]; nextCursor: string | null }> = {
    "": {
      trades: [trade("3", "2026-01-01T00:00:03Z"), trade("2", "2026-01-01T00:00:02Z")],
      nextCursor: "p2",
    },
    p2: {
      trades: [trade("1", "2026-01-01T00:00:01Z"), trade("0", "2026-01-01T00:00:00Z")],
      nextCursor: "p3",
    },
  };
  const source = {
    trades: async (o: { cursor?: string }) => pages[o.cursor ?? ""] ?? { trades: [], nextCursor: null },
  } as unknown as ReconcileSource;

  it("keeps the trades from the start on and stops paging at the first page that reaches before it", async () => {
    const cut = sessionTrades(source, Date.parse("2026-01-01T00:00:01Z"));
    const first = await cut.trades({});
    expect(first).toEqual({ trades: pages[""]?.trades, nextCursor: "p2" });
    const second = await cut.trades({ cursor: "p2" });
    expect(second.trades.map((t) => t.id)).toEqual(["1"]);
    expect(second.nextCursor).toBeNull();
  });
});
