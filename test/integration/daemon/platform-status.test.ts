import { afterEach, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../../src/app/daemon.js";
import { PLATFORM_POLL_MS } from "../../../src/engine/platform-watch.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import {
  daemonConfig,
  market,
  memoryLogger,
  openOnMock,
  rest,
  seedMarket,
  settledQuotes,
  startMock,
  waitFor,
} from "./support.js";

/**
 * A platform freeze with no platform_status push (the mock's fault flag set directly: the admin
 * action would push). The mock then answers placements 503 exchange_unavailable and GET
 * /api/platform/status `frozen: true`. The daemon must pull every quote (the wallet gate), not
 * count the 503s towards the error-rate halt, and quote again once the status says the freeze
 * ended, with no push for either.
 */

const ARG = market("arg-vs-fra-final-arg-win");
const FRA = market("arg-vs-fra-final-fra-win");

let mock: MockExchange | undefined;
let daemon: Daemon | undefined;
afterEach(async () => {
  await daemon?.stop("test over");
  await mock?.close();
  daemon = undefined;
  mock = undefined;
});

describe("daemon: a platform freeze that is never pushed", () => {
  it("is found from the 503s and GET /api/platform/status: every quote pulled, no halt; thawed by the status", async () => {
    const m = await startMock();
    mock = m;
    seedMarket(m, ARG, "0.50", "0.60");
    seedMarket(m, FRA, "0.30", "0.40");
    const { logger, sink } = memoryLogger("info");
    daemon = await startDaemon(daemonConfig(m, [ARG.slug, FRA.slug]), { logger });
    const quoted = (x: typeof ARG) => openOnMock(m, x.yesTokenId).length > 0;
    await waitFor(() => quoted(ARG) && quoted(FRA), 3_000, "quotes on both markets");
    await settledQuotes(m, ARG.yesTokenId, openOnMock(m, ARG.yesTokenId).length);

    m.context.faults.platformFrozen = true; // no push
    rest(m, ARG, "buy", "0.52", "50"); // ARG's book moves: its requote is refused 503
    await waitFor(() => openOnMock(m).length === 0, 3_000, "every quote pulled, FRA's too");
    const msgs = () => sink.records().map((r) => r.msg);
    expect(msgs()).toContain("platform frozen (GET /api/platform/status)");
    expect(msgs()).toContain("risk: platform_frozen");
    rest(m, FRA, "buy", "0.32", "50");
    await new Promise((r) => setTimeout(r, 300));
    expect(openOnMock(m)).toEqual([]);
    expect(msgs()).not.toContain("risk: error_rate_halt");

    m.context.faults.platformFrozen = false; // still no push
    await waitFor(() => quoted(ARG) && quoted(FRA), PLATFORM_POLL_MS + 3_000, "quotes back after the thaw");
    expect(msgs()).toContain("platform unfrozen (GET /api/platform/status)");
  }, 20_000);
});
