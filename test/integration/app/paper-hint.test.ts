import { describe, expect, it } from "vitest";
import { startPaperDaemon } from "../../../src/app/paper-daemon.js";
import { packageRoot } from "../../../src/config/paths.js";
import { memoryLogger } from "../daemon/support.js";

describe("paper mode's start-up hint", () => {
  it("names a URL that answers a market's order book (bids and asks), as it says", async () => {
    const { logger, sink } = memoryLogger();
    const env = { MM_JOURNAL_ENABLED: "false" };
    const paper = await startPaperDaemon({ env, cwd: packageRoot(), port: 0, flow: false, logger });
    try {
      const hint = sink.records().find((r) => String(r.msg).startsWith("paper: where to look"));
      const url = /the book of a market: curl (\S+);/.exec(String(hint?.msg))?.[1];
      expect(url).toBeDefined();
      const res = await fetch(url ?? "");
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Array.isArray(body.bids) && Array.isArray(body.asks)).toBe(true);
    } finally {
      expect((await paper.stop("test over")).exitCode).toBe(0);
    }
  }, 20_000);
});
