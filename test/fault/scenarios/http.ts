import { expect } from "vitest";
import type { Address } from "../../../src/core/types.js";
import { toWei, weiToString } from "../../../src/core/wei.js";
import { rest, SCENARIO, waitFor } from "../../integration/daemon/support.js";
import { walletHalts } from "../bot-log.js";
import { ARG, type Rig, startRig, WAIT_MS } from "../harness.js";
import { expectInvariants } from "../invariants.js";
import type { FaultScenario } from "../scenario.js";

const TAKER = SCENARIO.wallets[1]?.address.toLowerCase() as Address;

/**
 * Makes the bot send: a taker sells the whole of our best YES bid, so that quote must be replaced
 * and, the book's best bid gone, the YES mid moves and the other quotes are repriced.
 */
function provokeRequotes(rig: Rig): void {
  const bestBid = rig.venue
    .open()
    .filter((o) => o.tokenId === ARG.yesTokenId && o.side === "buy")
    .sort((a, b) => Number(b.price - a.price))[0];
  if (bestBid === undefined) throw new Error("no YES bid to hit");
  rig.mock.context.venue.credit(TAKER, ARG.yesTokenId, toWei("100"));
  rest(rig.mock, ARG, "sell", weiToString(bestBid.price), weiToString(bestBid.remaining), "YES", TAKER);
}

/** The wallet-wide halts of the run, for the table. */
function haltNote(rig: Rig): string {
  const halts = walletHalts(rig.events);
  return halts.length === 0 ? "no halt" : `halts: ${[...new Set(halts)].join(", ")}`;
}

/** Every token has four quotes counting the levels held by unresolved ambiguous placements. */
function quotingOrHeld(rig: Rig): boolean {
  const held = rig.daemon.engine.liveOrders().filter((o) => o.state === "unknown");
  return rig.tokens.every(
    (t) =>
      rig.venue.open().filter((o) => o.tokenId === t).length + held.filter((o) => o.tokenId === t).length >=
      4,
  );
}

/** How long after the tap passed an answer back the bot may still be sending what it wrote before reading it. */
const LOOP_SLACK_MS = 100;

export const rateLimitStorm: FaultScenario = {
  name: "429 storm",
  fault: "fail-next {count: 20, status: 429, Retry-After: 1}",
  // Each honoured 1 s hold lets about two requests meet the storm, so its 20 answers take ~7-10 s.
  timeoutMs: 40_000,
  async run(row) {
    const rig = await startRig();
    try {
      const t0 = Date.now();
      await rig.admin("fail-next", { count: 20, status: 429, retryAfterSeconds: 1 });
      provokeRequotes(rig);
      const limited = () => rig.tap.requests.filter((r) => r.status === 429);
      await waitFor(
        () => limited().length === 20 && rig.quoting(),
        25_000,
        "the storm served and every token quoted again",
      );
      row.recoveryMs = Date.now() - t0;
      // Retry-After is honoured: no placement leaves within the second after one was refused. The
      // tap shares the bot's event loop, so a placement the bot wrote before the 429 reached it can
      // be stamped after the tap passed the 429 back (ready I/O runs in no set order: CI saw a requote
      // pair stamped so under load); what the bot sent once it knew shows after LOOP_SLACK_MS of the
      // loop running (time the loop was stalled in between, on a loaded box, moved nothing).
      const places = rig.tap.requests.filter((r) => r.clientOrderId !== undefined);
      for (const r of places.filter((p) => p.status === 429)) {
        const at = r.answeredAt ?? 0;
        const soon = places.filter(
          (p) =>
            p.startedAt > at + LOOP_SLACK_MS + rig.stall.within(at, p.startedAt) && p.startedAt < at + 900,
        );
        expect(soon.map((p) => p.clientOrderId)).toEqual([]);
      }
      await waitFor(
        () => rig.daemon.engine.positionOf(ARG.yesTokenId) > 0n,
        WAIT_MS,
        "the fill in inventory",
      );
      await rig.reconciles(2);
      const retried = places.filter((p) => p.status === 429).length;
      expectInvariants(
        row,
        rig.verdicts(),
        `${retried} placements 429'd, none 0.1–0.9 s after; ${haltNote(rig)}`,
      );
    } finally {
      await rig.close();
    }
  },
};

export const serverErrorStorm: FaultScenario = {
  name: "5xx storm",
  fault: "fail-next {count: 12, status: 500}",
  async run(row) {
    const rig = await startRig();
    try {
      const t0 = Date.now();
      await rig.admin("fail-next", { count: 12, status: 500 });
      provokeRequotes(rig);
      // A placement answered 500 may have been done: its level stays held (never resent) until the
      // reconciler finds the order, or until unknownGraceMs (30 s) proves it was never placed.
      const failed = () => rig.tap.requests.filter((r) => r.status === 500).length;
      await waitFor(
        () => failed() === 12 && quotingOrHeld(rig),
        10_000,
        "the storm served and every level quoted or held",
      );
      row.recoveryMs = Date.now() - t0;
      const ambiguous = rig.events.filter(
        (e) => e.type === "place_outcome" && e.outcome === "ambiguous",
      ).length;
      const held = rig.daemon.engine.liveOrders().filter((o) => o.state === "unknown").length;
      await rig.reconciles(2);
      expectInvariants(
        row,
        rig.verdicts(),
        `${ambiguous} placement(s) ambiguous, none resent, ${held} level(s) held at recovery; ${haltNote(rig)}`,
      );
    } finally {
      await rig.close();
    }
  },
};

export const hungPlacement: FaultScenario = {
  name: "placement accepted, never answered",
  fault: "hang-placements {count: 2}",
  async run(row) {
    const rig = await startRig();
    try {
      const t0 = Date.now();
      await rig.admin("hang-placements", { count: 2 });
      provokeRequotes(rig);
      const hung = await waitFor(
        () => {
          const h = rig.tap.requests.filter((r) => r.clientOrderId !== undefined && r.abandoned);
          return h.length === 2 ? h : undefined;
        },
        WAIT_MS,
        "two placements timed out unanswered",
      );
      // Each is ambiguous: the reconciler finds it on the exchange by clientOrderId; nothing is resent.
      const cids = hung.map((r) => r.clientOrderId ?? "");
      await waitFor(
        () => rig.daemon.engine.liveOrders().every((o) => o.state !== "unknown") && rig.quoting(),
        WAIT_MS,
        "both resolved and every token quoted",
      );
      row.recoveryMs = Date.now() - t0;
      for (const cid of cids) {
        expect(rig.tap.requests.filter((r) => r.clientOrderId === cid)).toHaveLength(1);
        expect([...rig.venue.orders.values()].filter((o) => o.clientOrderId === cid)).toHaveLength(1);
      }
      await rig.reconciles(2);
      expectInvariants(row, rig.verdicts(), "2 timed out, found by clientOrderId, sent once each");
    } finally {
      await rig.close();
    }
  },
};

/** The routes the cancel storm fails: every cancel and cancel-all, nothing else. */
const CANCEL_PATHS = ["/api/orders/cancel", "/api/orders/cancel-all"];
/**
 * 500s to serve: the halt trips on the 11th counted error (risk.errorRate.maxErrors 10, the
 * default; its window 30 s, its cool-down 1 s in FAST_ENV), and those arriving during the halt are
 * not counted, so 30 keeps the storm on through most of the halt and then runs out.
 */
const CANCEL_STORM = 30;

/** The error-rate halts the run decided: from the decision to its `until`, and the code that tripped it. */
function errorHalts(rig: Rig): { at: number; until: number; code: string }[] {
  return rig.events.flatMap((e) =>
    e.type === "decision" && e.decision.scope === "wallet" && e.decision.reason === "error_rate_halt"
      ? [{ at: e.atMs, until: Number(e.decision.detail.until), code: String(e.decision.detail.code) }]
      : [],
  );
}

/**
 * Placements sent on the level of a quote whose cancel was answered ambiguously, after that answer
 * and while the quote still rested at the venue: each rested beside it, quoting the level twice.
 */
function doubledLevels(rig: Rig, t0: number): string[] {
  const level = new Map<string, string>();
  for (const e of rig.events) {
    if (e.type === "place_sent" && e.order !== undefined) {
      level.set(e.clientOrderId, `${e.tokenId}:${e.order.side}${e.order.level}`);
    }
  }
  const restsUntil = new Map<string, number>();
  for (const o of rig.venue.orders.values()) {
    if (o.clientOrderId !== undefined) restsUntil.set(o.clientOrderId, o.endedAt ?? Number.POSITIVE_INFINITY);
  }
  const doubled = new Set<string>();
  for (const e of rig.events) {
    if (e.type !== "cancel_outcome" || e.outcome !== "ambiguous" || e.atMs < t0) continue;
    const until = restsUntil.get(e.clientOrderId) ?? e.atMs;
    for (const p of rig.events) {
      if (p.type !== "place_sent" || p.atMs < e.atMs || p.atMs >= until) continue;
      if (level.get(p.clientOrderId) === level.get(e.clientOrderId)) {
        doubled.add(`${p.clientOrderId} beside ${e.clientOrderId}`);
      }
    }
  }
  return [...doubled];
}

export const cancelStorm: FaultScenario = {
  name: "cancel storm",
  fault: `fail-next {count: ${CANCEL_STORM}, status: 500, paths: [cancel, cancel-all]} + 2 fills`,
  async run(row) {
    const rig = await startRig();
    try {
      const t0 = Date.now();
      await rig.admin("fail-next", { count: CANCEL_STORM, status: 500, paths: CANCEL_PATHS });
      provokeRequotes(rig);
      // Every cancel of the requote is answered 500 (ambiguous: the quote may still rest), and so is
      // every one the reconciles it triggers send again; placements go through. Counted once per
      // request, the cancels alone trip the wallet-wide halt.
      const [halt] = await waitFor(
        () => (errorHalts(rig).length > 0 ? errorHalts(rig) : undefined),
        6_000,
        "the error-rate halt tripped by the cancels' 500s",
      );
      if (halt === undefined) throw new Error("no halt");
      expect(halt.code).toBe("internal_error");
      expect(walletHalts(rig.events)).toContain("error_rate_halt");
      // Another fill while halted: the quotes must move again, and still nothing may be placed.
      provokeRequotes(rig);
      // Quotes whose cancel was answered 500: they may still rest, at prices the bot no longer wants.
      const ambiguous = () =>
        new Set(
          rig.events.flatMap((e) =>
            e.type === "cancel_outcome" && e.outcome === "ambiguous" && e.atMs >= t0 ? [e.clientOrderId] : [],
          ),
        );
      // Settled: each token rests exactly its four quotes, each one the bot holds as open (not a
      // cancel it is still unsure of). A quote whose cancel was ambiguous may be among them when
      // the reconciler found it resting at a price the bot wants again; every other one is gone.
      const settled = () => {
        const open = rig.venue.open();
        const held = new Set(
          rig.daemon.engine
            .liveOrders()
            .filter((o) => o.state === "open")
            .map((o) => o.clientOrderId),
        );
        return (
          rig.tokens.every((t) => open.filter((o) => o.tokenId === t).length === 4) &&
          open.every((o) => held.has(o.clientOrderId ?? ""))
        );
      };
      // The halt ends on its own (its cool-down; src/engine/halt-end.ts requotes then): the storm
      // used up and the halt over, the stale quotes come off and quoting resumes.
      await waitFor(
        () =>
          rig.mock.admin.state().faults.failNext === null &&
          errorHalts(rig).every((h) => Date.now() >= h.until) &&
          rig.tap.idle() &&
          settled(),
        10_000,
        "the storm served, the halt over, the stale quotes off and every token quoted again",
      );
      row.recoveryMs = Date.now() - t0;
      const sent = rig.tap.requests.filter((r) => r.startedAt >= t0);
      const cancels = sent.filter((r) => CANCEL_PATHS.includes(r.path));
      expect(cancels.filter((r) => r.status === 500)).toHaveLength(CANCEL_STORM);
      // Nothing else was failed: no placement error helped trip the halt.
      const places = sent.filter((r) => r.clientOrderId !== undefined);
      expect(places.filter((r) => r.status !== 201)).toEqual([]);
      const halts = errorHalts(rig);
      const sentAt = new Map<string, number>();
      for (const e of rig.events) if (e.type === "place_sent") sentAt.set(e.clientOrderId, e.atMs);
      let heldCancels = 0;
      for (const h of halts) {
        const during = (at: number) => at >= h.at && at < h.until;
        // No placement left while halted: the engine sent none, and each one the tap saw in the
        // span had been sent before the halt (on its way when it tripped).
        expect(rig.events.filter((e) => e.type === "place_sent" && during(e.atMs))).toEqual([]);
        for (const p of places.filter((r) => during(r.startedAt))) {
          expect(sentAt.get(p.clientOrderId ?? "") ?? Number.POSITIVE_INFINITY).toBeLessThan(h.at);
        }
        heldCancels += cancels.filter((r) => during(r.startedAt)).length;
      }
      // The halt stops placements only: its own cancel-all, then single cancels, go on.
      const first = cancels.filter((r) => r.startedAt >= halt.at && r.startedAt < halt.until);
      expect(first.some((r) => r.path === "/api/orders/cancel-all")).toBe(true);
      expect(first.some((r) => r.path === "/api/orders/cancel")).toBe(true);
      // No level gains a quote while one there is in doubt: while a quote whose cancel was ambiguous still rested, nothing new
      // was sent on its token, side and level.
      expect(doubledLevels(rig, t0)).toEqual([]);
      const stale = [...rig.venue.orders.values()].filter((o) => ambiguous().has(o.clientOrderId ?? ""));
      const pulled = stale.filter((o) => o.endedAt !== undefined).length;
      await rig.reconciles(2);
      expectInvariants(
        row,
        rig.verdicts(),
        `${halts.length} halt(s), tripped ${halt.at - t0} ms in; ${heldCancels} cancel request(s) while halted, 0 placements; ${pulled} of the ${stale.length} quote(s) whose cancel was ambiguous off the book, the rest wanted again`,
      );
    } finally {
      await rig.close();
    }
  },
};
