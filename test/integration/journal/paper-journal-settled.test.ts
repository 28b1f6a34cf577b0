import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type PaperDaemon, startPaperDaemon } from "../../../src/app/paper-daemon.js";
import { packageRoot } from "../../../src/config/paths.js";
import {
  market,
  memoryLogger,
  SCENARIO,
  seedMarket,
  settledQuotes,
  WALLET,
  waitFor,
  walletBuys,
} from "../daemon/support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const YES = ARG.yesTokenId;

let paper: PaperDaemon | undefined;
let dir: string | undefined;
afterEach(async () => {
  await paper?.stop("test over");
  paper = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A port free on 127.0.0.1 now: both runs take it, so that they are one journal account. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  await new Promise((r) => server.close(r));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * `mm paper` with a kept journal (--journal) restores the positions of the earlier paper run, but
 * each run starts a fresh mock from the scenario: a market the earlier run saw resolve was listed
 * OPEN again, so the restored position was marked at the mid (its payout lost from the PnL) and the
 * market was quoted again. The journal now keeps each settlement, and paper settles the fresh mock's
 * market again before the daemon starts.
 */
describe("mm paper on a kept journal after a resolution", () => {
  it("the next run's mock has the market resolved with the same payouts: the position keeps its payout", async () => {
    dir = mkdtempSync(join(tmpdir(), "mm-paper-settled-"));
    const port = await freePort();
    const env = { MM_ENGINE_MARKETS: JSON.stringify([ARG.slug]) };
    const journalPath = join(dir, "journal.sqlite");
    const run = (logger = memoryLogger("warn").logger) =>
      startPaperDaemon({ env, cwd: packageRoot(), port, flow: false, logger, journalPath });

    paper = await run();
    const first = paper;
    const url = first.mock.httpUrl;
    seedMarket(first.mock, ARG, "0.30", "0.70");
    await settledQuotes(first.mock, YES, 4);
    walletBuys(first.mock, ARG, "0.70", "10"); // a taker buy of 10 YES, its share fee settling later
    await waitFor(() => first.engine.positionOf(YES) === 10_000_000n, 3_000, "the taker fill");
    await new Promise((r) => setTimeout(r, SCENARIO.timing.settlementDelayMs + 100));
    await first.engine.reconcileNow(); // books the fee in this run
    first.mock.admin.resolveMarket(ARG.id, "YES");
    await waitFor(() => first.engine.status().pnlMicro > 2_000_000n, 3_000, "the position marked at 1");
    const pnl = first.engine.status().pnlMicro;
    expect((await first.stop("restart")).exitCode).toBe(0);
    paper = undefined;

    const { logger, sink } = memoryLogger("info");
    paper = await run(logger);
    const second = paper;
    expect(second.mock.httpUrl).toBe(url);
    expect(second.mock.context.venue.market(ARG.id)?.status).toBe("RESOLVED");
    expect(second.mock.context.resolutions.payoutsOf(ARG.id)).toEqual(["1", "0"]);
    expect(
      sink.records().some((r) => /paper: .*arg-vs-fra-final-arg-win.*resolved/.test(String(r.msg))),
    ).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(second.engine.status().pnlMicro).toBe(pnl); // marked at its payout, not at a mid
    expect(second.mock.context.venue.openOrders(WALLET)).toEqual([]); // not quoted again
  }, 30_000);
});
