import { expect } from "vitest";
import { OTHER, rest, waitFor } from "../../integration/daemon/support.js";
import { walletHalts } from "../bot-log.js";
import { ARG, FRA, pause, type Rig, startRig, WAIT_MS } from "../harness.js";
import { checkNoPlacementsWhile, expectInvariants, type Verdict } from "../invariants.js";
import type { FaultScenario } from "../scenario.js";
import { ARG_TOKENS, learnt, quotesOn } from "./market.js";

/**
 * `engine.marketRecheckMs` in this scenario: the closed-market watch reads ARG's record every second
 * (60 s by default), and a refusal's cool-down is as long, so the old behaviour (a probing burst
 * at each cool-down's end) would show within the hold below.
 */
const RECHECK_MS = 1_000;
/** How long ARG stays paused once the bot has seen it: two and a half rechecks. */
const HOLD_MS = 2_500;
/** Bound on resume → quoting again: one recheck period, its read and the requote's round trips. */
const REQUOTE_BOUND_MS = RECHECK_MS + 2_000;

const placementsOn = (rig: Rig, marketId: string) =>
  rig.tap.requests.filter((r) => r.placement?.marketId === marketId);
const refused = (rig: Rig) => placementsOn(rig, ARG.id).filter((r) => r.errorCode === "market_not_open");
const recordReads = (rig: Rig, from: number, to: number) =>
  rig.tap.requests.filter(
    (r) => r.path === `/api/markets/${ARG.slug}` && r.startedAt >= from && r.startedAt < to,
  ).length;
/** GET /api/markets answered so far: the open-market sweep's reads, one a period. */
const listReads = (rig: Rig) =>
  rig.tap.requests.filter((r) => r.path === "/api/markets" && r.answeredAt !== undefined).length;

/**
 * Resolves just after a sweep's list read was answered: the next is a period away, so a pause made
 * now is met by whatever the scenario does next (a requote), not by the sweep.
 */
async function afterSweep(rig: Rig): Promise<void> {
  const seen = listReads(rig);
  await waitFor(() => listReads(rig) > seen, 3 * RECHECK_MS, "an open-market sweep's GET /api/markets");
}

/** The refused placements: only those sent before the first 409 came back (the requote's burst). */
function checkRefusals(rig: Rig): Verdict {
  const all = refused(rig);
  const firstAnswer = Math.min(...all.map((r) => r.answeredAt ?? Number.POSITIVE_INFINITY));
  const late = all.filter((r) => r.startedAt > firstAnswer);
  return {
    name: "refused",
    ok: all.length > 0 && late.length === 0,
    summary: `${all.length} placement(s) refused 409, ${late.length} after the first answer`,
    problems: late.map(
      (r) => `${r.clientOrderId ?? "?"} sent ${r.startedAt - firstAnswer} ms after the first 409`,
    ),
  };
}

/**
 * A market paused with no lifecycle push (the spec: most are not yet emitted), while two markets are
 * quoted. The bot finds out only when a requote there is refused 409 `market_not_open`: that gates
 * the market and reads its record, which says PAUSED, and the market is then held PAUSED. Pinned:
 * nothing more is placed there after the first 409 (no probe at the refusal's cool-down, whose
 * refusals a minute used to cost every quote of the market), the refusals halt nothing (the other
 * market quotes on, no wallet halt), the bot's quotes there are cancelled on the exchange (cancels
 * still work while paused) and the bot believes the same, and its record is read every
 * `engine.marketRecheckMs`: a silent resume is quoted again within one period. Recovery time: the
 * resume → quoting again.
 */
export const marketPausedSilently: FaultScenario = {
  name: "market paused silently",
  fault: "silence-lifecycle, pause-market, resume-market",
  async run(row) {
    const rig = await startRig({
      markets: [ARG, FRA],
      env: { MM_ENGINE_MARKET_RECHECK_MS: String(RECHECK_MS) },
    });
    try {
      // Depth under the other trader's best YES bid, so pulling that bid moves ARG's quotes.
      rest(rig.mock, ARG, "buy", "0.49", "100", "YES");
      await pause(500);
      await waitFor(() => rig.quoting(), WAIT_MS, "quoting after the depth landed");
      await rig.admin("silence-lifecycle", { on: true });
      // The open-market sweep would see the pause too, a period after it at most: paused just after
      // a sweep's read, the requote below meets it first (what this scenario pins).
      await afterSweep(rig);
      const t0 = Date.now();
      await rig.admin("pause-market", { marketId: ARG.id });
      // Cancels still work on a paused market: the other trader pulls its best YES bid, the book
      // moves, and the bot's requote there is what meets the pause.
      const bid = rig.mock.context.venue
        .openOrders(OTHER, ARG.id)
        .find((o) => o.tokenId === ARG.yesTokenId && o.side === "buy" && o.price === 500_000n);
      if (bid === undefined) throw new Error("the other trader's 0.50 YES bid is gone");
      rig.mock.context.venue.cancel(OTHER, bid.id);
      const gatedAt = await learnt(rig, "market refused a placement");
      await learnt(rig, "market is now PAUSED (its record, read after the refusal)");
      await waitFor(() => quotesOn(rig, ARG.id) === 0, WAIT_MS, "the paused market's quotes pulled");
      const pulledMs = Date.now() - t0;
      const liveOnArg = () =>
        rig.daemon.engine.liveOrders().filter((o) => ARG_TOKENS.includes(o.tokenId)).length;
      // What the bot believes is what the exchange holds: nothing of ours rests on the paused market.
      await waitFor(() => liveOnArg() === 0, WAIT_MS, "the bot tracking nothing on the paused market");

      const holdFrom = Date.now();
      await pause(HOLD_MS);
      const reads = recordReads(rig, holdFrom, Date.now());
      expect(reads).toBeGreaterThanOrEqual(2);
      expect(quotesOn(rig, ARG.id)).toBe(0);
      expect(liveOnArg()).toBe(0);
      expect(rig.quoting([FRA.yesTokenId, FRA.noTokenId])).toBe(true);
      expect(walletHalts(rig.events)).toEqual([]);
      expect(
        rig.logs.records().filter((r) => String(r.msg).includes("market refused a placement")),
      ).toHaveLength(1);

      const resumedAt = Date.now();
      await rig.admin("resume-market", { marketId: ARG.id });
      await waitFor(() => rig.quoting(), WAIT_MS, "quoting again after the silent resume");
      row.recoveryMs = Date.now() - resumedAt;
      expect(row.recoveryMs).toBeLessThan(REQUOTE_BOUND_MS);
      await learnt(rig, "market is now OPEN (its record, read while it was closed)");
      await rig.reconciles(2);
      expectInvariants(
        row,
        [
          ...rig.verdicts(),
          checkRefusals(rig),
          checkNoPlacementsWhile(rig.placeSent, ARG_TOKENS, gatedAt, resumedAt),
        ],
        `pulled in ${pulledMs} ms; ${reads} record reads in ${HOLD_MS / 1000} s paused`,
      );
    } finally {
      await rig.close();
    }
  },
};

/**
 * A market paused with no lifecycle push on a book that never moves: nothing is requoted there, so
 * no placement meets the pause. Before (session 18) nothing told the bot: its quotes rested at
 * pre-pause prices through the pause and were stale at the resume. The open-market sweep reads GET
 * /api/markets every `engine.marketRecheckMs` (1 s here) and holds the market as a refusal's read
 * would: its quotes are cancelled within one period plus the read and the cancels, with no
 * placement refused, the other market quoting on; the closed-market watch then reads its record, and
 * the silent resume is quoted again within one period. Recovery time: the resume → quoting again.
 */
export const marketPausedSilentlyStaticBook: FaultScenario = {
  name: "market paused silently, static book",
  fault: "silence-lifecycle, pause-market (no book change), resume-market",
  async run(row) {
    const rig = await startRig({
      markets: [ARG, FRA],
      env: { MM_ENGINE_MARKET_RECHECK_MS: String(RECHECK_MS) },
    });
    try {
      await waitFor(() => rig.quoting(), WAIT_MS, "quoting");
      await rig.admin("silence-lifecycle", { on: true });
      const t0 = Date.now();
      await rig.admin("pause-market", { marketId: ARG.id });
      const heldAt = await learnt(rig, "market is now PAUSED (its record, read by the open-market sweep)");
      await waitFor(() => quotesOn(rig, ARG.id) === 0, WAIT_MS, "the paused market's quotes pulled");
      const pulledMs = Date.now() - t0;
      expect(pulledMs).toBeLessThan(REQUOTE_BOUND_MS);
      const liveOnArg = () =>
        rig.daemon.engine.liveOrders().filter((o) => ARG_TOKENS.includes(o.tokenId)).length;
      await waitFor(() => liveOnArg() === 0, WAIT_MS, "the bot tracking nothing on the paused market");

      await pause(HOLD_MS);
      expect(quotesOn(rig, ARG.id)).toBe(0);
      expect(refused(rig)).toEqual([]);
      expect(rig.quoting([FRA.yesTokenId, FRA.noTokenId])).toBe(true);
      expect(walletHalts(rig.events)).toEqual([]);

      const resumedAt = Date.now();
      await rig.admin("resume-market", { marketId: ARG.id });
      await waitFor(() => rig.quoting(), WAIT_MS, "quoting again after the silent resume");
      row.recoveryMs = Date.now() - resumedAt;
      expect(row.recoveryMs).toBeLessThan(REQUOTE_BOUND_MS);
      await learnt(rig, "market is now OPEN (its record, read while it was closed)");
      await rig.reconciles(2);
      expectInvariants(
        row,
        [...rig.verdicts(), checkNoPlacementsWhile(rig.placeSent, ARG_TOKENS, heldAt, resumedAt)],
        `pulled in ${pulledMs} ms, none refused`,
      );
    } finally {
      await rig.close();
    }
  },
};
