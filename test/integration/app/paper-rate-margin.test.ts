import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { PAPER_RATE_MARGIN_MS, startPaperDaemon } from "../../../src/app/paper-daemon.js";
import { packageRoot } from "../../../src/config/paths.js";
import { createLogger } from "../../../src/observability/logger.js";
import { daemonConfig, daemonSlots, market, SCENARIO, startMock } from "../daemon/support.js";

const silent = createLogger({ level: "silent" });
const OPEN = SCENARIO.markets.find((m) => m.status === "OPEN")?.slug ?? "";

/**
 * Paper's in-process mock counts a request when its handler runs, under CPU load up to ~900 ms after
 * mm sent it (its start burst drew 18–22 429s): paper's rate budget allows for that
 * (PAPER_RATE_MARGIN_MS: order-queue-paper-margin.test.ts shows the burst it keeps within the
 * window); a live daemon keeps the network's 50 ms, and with it its throughput.
 */
describe("the rate budget's arrival margin", () => {
  const slots = daemonSlots();

  it("is PAPER_RATE_MARGIN_MS on every bucket in paper mode", async () => {
    const paper = await startPaperDaemon({
      env: {},
      cwd: packageRoot(),
      port: 0,
      flow: false,
      logger: silent,
    });
    try {
      for (const op of ["place", "cancel", "cancel_all", "order_reads", "me_reads"] as const) {
        for (const b of paper.engine.rateBudget.buckets(op)) expect(b.marginMs).toBe(PAPER_RATE_MARGIN_MS);
      }
    } finally {
      await paper.stop("test over");
    }
  }, 20_000);

  it("stays 50 ms for a daemon against an exchange (mm run)", async () => {
    slots.mock = await startMock();
    slots.daemon = await startDaemon(daemonConfig(slots.mock, [market(OPEN).slug]), { logger: silent });
    expect(slots.daemon.engine.rateBudget.buckets("place").map((b) => b.marginMs)).toEqual([50, 50]);
  }, 20_000);
});
