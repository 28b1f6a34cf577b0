import { expect } from "vitest";
import type { Address } from "../../../src/core/types.js";
import { toWei, weiToString } from "../../../src/core/wei.js";
import { rest, SCENARIO, waitFor } from "../../integration/daemon/support.js";
import { walletHalts } from "../bot-log.js";
import { ARG, type Rig, startRig } from "../harness.js";
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

export const rateLimitStorm: FaultScenario = {
  name: "429 storm",
  fault: "fail-next {count: 20, status: 429, Retry-After: 1}",
  async run(row) {
    const rig = await startRig();
    try {
      const t0 = Date.now();
      await rig.admin("fail-next", { count: 20, status: 429, retryAfterSeconds: 1 });
      provokeRequotes(rig);
      const limited = () => rig.tap.requests.filter((r) => r.status === 429);
      await waitFor(
        () => limited().length === 20 && rig.quoting(),
        10_000,
        "the storm served and every token quoted again",
      );
      row.recoveryMs = Date.now() - t0;
      // Retry-After is honoured: no placement leaves within the second after one was refused.
      const places = rig.tap.requests.filter((r) => r.clientOrderId !== undefined);
      for (const r of places.filter((p) => p.status === 429)) {
        const at = r.answeredAt ?? 0;
        const soon = places.filter((p) => p.startedAt > at && p.startedAt < at + 900);
        expect(soon.map((p) => p.clientOrderId)).toEqual([]);
      }
      await waitFor(() => rig.daemon.engine.positionOf(ARG.yesTokenId) > 0n, 3_000, "the fill in inventory");
      await rig.reconciles(2);
      const retried = places.filter((p) => p.status === 429).length;
      expectInvariants(
        row,
        rig.verdicts(),
        `${retried} placements 429'd, none within 0.9 s after; ${haltNote(rig)}`,
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
        5_000,
        "two placements timed out unanswered",
      );
      // Each is ambiguous: the reconciler finds it on the exchange by clientOrderId; nothing is resent.
      const cids = hung.map((r) => r.clientOrderId ?? "");
      await waitFor(
        () => rig.daemon.engine.liveOrders().every((o) => o.state !== "unknown") && rig.quoting(),
        5_000,
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
