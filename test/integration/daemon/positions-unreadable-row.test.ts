import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { sendJson } from "../../support/http-test-server.js";
import { FRONTED, frontedMocks } from "./rest-front.js";
import { daemonConfig, memoryLogger } from "./support.js";

/*
 * The exchange's positions answer holds a row mm cannot read exactly (a quantity finer than a
 * share's 6 decimals) for a token mm does not trade. Nothing mm does depends on that row: the start
 * goes on, and so does every periodic reconcile (a failed reconcile prunes nothing and corrects no
 * drift; a lasting one is retried at the periodic pace, warned of once).
 */

const fronted = frontedMocks();
const ODD_ROW = { tokenId: "999", quantity: "0.1234567" };

describe("daemon: an unreadable positions row of a token mm does not trade", () => {
  it("neither the start nor the periodic reconciles fail on it", async () => {
    const { m, url } = await fronted((req, res) => {
      if (req.path !== "/api/me/positions") return false;
      sendJson(res, 200, { positions: [ODD_ROW] });
      return true;
    });
    const { logger, sink } = memoryLogger("debug");
    const daemon = await startDaemon(
      daemonConfig(m, [FRONTED.slug], { MM_EXCHANGE_BASE_URL: url, MM_RECONCILE_INTERVAL_MS: "1000" }),
      { logger },
    );
    try {
      const count = (msg: string) => sink.records().filter((r) => r.msg === msg).length;
      // The start's reconcile and two periodic ones, or the first failure.
      const until = Date.now() + 15_000;
      while (Date.now() < until && count("reconcile failed") === 0 && count("reconcile") < 3) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(
        sink
          .records()
          .filter((r) => r.msg === "reconcile failed")
          .map((r) => r.err),
      ).toEqual([]);
      expect(count("reconcile")).toBeGreaterThanOrEqual(3);
    } finally {
      await daemon.stop("test over");
    }
  });
});
