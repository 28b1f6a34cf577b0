import { expect } from "vitest";
import type { Address } from "../../../src/core/types.js";
import { toWei, weiToString } from "../../../src/core/wei.js";
import { type MmChild, reap } from "../../e2e/support.js";
import { rest, SCENARIO, waitFor } from "../../integration/daemon/support.js";
import {
  childState,
  lastLine,
  quotesSettled,
  reconcileRuns,
  runChild,
  scrape,
  waitForAsync,
} from "../child.js";
import { ARG, pause, startWorld, venuePositions, WAIT_MS, type World } from "../harness.js";
import {
  checkExit,
  checkInventory,
  checkNoDuplicates,
  checkNoForeignOrders,
  expectInvariants,
} from "../invariants.js";
import type { FaultScenario } from "../scenario.js";

const TAKER = SCENARIO.wallets[1]?.address.toLowerCase() as Address;

/** The best YES bid of ours resting on the venue. */
function bestBid(world: World) {
  const bid = world.venue
    .open()
    .filter((o) => o.tokenId === ARG.yesTokenId && o.side === "buy")
    .sort((a, b) => Number(b.price - a.price))[0];
  if (bid === undefined) throw new Error("no YES bid of ours");
  return bid;
}

/** A child's inventory per ARG token (mm_position_shares, relative to its baseline), micro-shares. */
async function positionsOf(metrics: string): Promise<Map<string, bigint>> {
  const shares = await scrape(metrics, "mm_position_shares");
  const of = (outcome: string) =>
    toWei(String(shares.get(`{market="${ARG.slug}",outcome="${outcome}"}`) ?? 0));
  return new Map([
    [ARG.yesTokenId, of("YES")],
    [ARG.noTokenId, of("NO")],
  ]);
}

export const sigkillRestart: FaultScenario = {
  name: "mm run SIGKILLed mid-quoting, restarted",
  fault: "SIGKILL during a requote burst; restart (onStart cancel)",
  timeoutMs: 40_000,
  async run(row) {
    const world = await startWorld();
    const children: MmChild[] = [];
    try {
      const first = await runChild(world, "crashed", children);
      await quotesSettled(world, first.metrics, "the first run's quotes, each answered");
      // Mid-quoting: a taker fills our best YES bid, and the process dies as soon as the requote it
      // causes is on the wire (cancels and placements in flight).
      const before = world.tap.requests.length;
      const filled = bestBid(world);
      world.mock.context.venue.credit(TAKER, ARG.yesTokenId, toWei("100"));
      rest(world.mock, ARG, "sell", weiToString(filled.price), weiToString(filled.remaining), "YES", TAKER);
      await waitFor(
        () => world.tap.requests.slice(before).some((r) => r.method === "POST"),
        WAIT_MS,
        "the requote burst",
      );
      first.mm.child.kill("SIGKILL");
      const killedAt = Date.now();
      expect(await first.mm.exited).toBe("SIGKILL");
      // Requests the dead process left in flight still land: wait for the mock to have served them.
      await waitFor(() => world.tap.idle(), WAIT_MS, "the dead run's requests served");
      await pause(200);
      const orphans = world.venue.open();
      expect(orphans.length).toBeGreaterThan(0);
      for (const o of orphans) expect(o.clientOrderId).toMatch(/^mm-crashed-/);

      // The restart (same journal, as on one host) cancels every orphan before quoting.
      const atStart = venuePositions(world.mock);
      const second = await runChild(world, "restarted", children);
      // Its inventory at start: what the journal carried over from the crashed run (0 without one).
      const carried = await positionsOf(second.metrics);
      await waitFor(
        () => world.quoting() && checkNoForeignOrders(world.venue.open(), "restarted").ok,
        WAIT_MS,
        "the orphans gone and fresh quotes",
      ).catch((err: unknown) => {
        throw new Error(`${(err as Error).message}; ${childState(world, second.mm, "restarted")}`);
      });
      row.recoveryMs = Date.now() - killedAt;
      // A fill while the restarted run quotes: its inventory must follow the exchange's.
      world.mock.context.venue.credit(TAKER, ARG.yesTokenId, toWei("10"));
      rest(world.mock, ARG, "sell", weiToString(bestBid(world).price), "2", "YES", TAKER);
      const runs = await reconcileRuns(second.metrics);
      await waitForAsync(
        async () => (await reconcileRuns(second.metrics)) >= runs + 2,
        6_000,
        "two reconciles",
      );
      const now = await positionsOf(second.metrics);
      const verdicts = [
        checkNoForeignOrders(world.venue.open(), "restarted"),
        checkNoDuplicates(world.venue.orders.values(), world.tap.requests),
        // The exchange's holdings at its start plus what it traded since (its inventory's change).
        checkInventory(
          world.tokens,
          atStart,
          (t) => (now.get(t) ?? 0n) - (carried.get(t) ?? 0n),
          venuePositions(world.mock),
        ),
      ];
      second.mm.child.kill("SIGTERM");
      const code = await second.mm.exited;
      const outcome = typeof code === "number" ? { exitCode: code, reason: lastLine(second.mm) } : undefined;
      verdicts.push(checkExit(outcome, 0, "stopped (SIGTERM)"));
      expectInvariants(
        row,
        verdicts,
        `${orphans.length} orphan(s) at the kill, all cancelled at restart; ${weiToString(carried.get(ARG.yesTokenId) ?? 0n)} YES carried over by the journal`,
      );
      expect(world.venue.open()).toEqual([]);
    } finally {
      for (const c of children) await reap(c);
      await world.close();
    }
  },
};
