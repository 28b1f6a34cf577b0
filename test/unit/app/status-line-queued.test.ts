import { describe, expect, it } from "vitest";
import { DaemonReporter } from "../../../src/app/daemon-log.js";
import type { QuotedMarkets } from "../../../src/app/markets.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { Harness } from "../engine/support/harness.js";
import { THREE_BANDS } from "../engine/support/stop-rig.js";

/*
 * `npm start`'s status line every 30 s said "16 token(s) quoted, 0 open order(s), 0 in flight" while
 * the paper rate budget held 20–40 placements in the queue (mm_queue_depth{lane="place"}): a
 * newcomer reads it as a bot that quotes nothing. The line now counts the queued placements too.
 */
describe("status line: placements waiting in the queue", () => {
  it("are counted in engine.status() and named in the status line", async () => {
    // 24 placements at 60 a minute: most wait in the queue.
    const h = new Harness({ markets: 2, strategy: THREE_BANDS, options: { rateLimitPerMin: 60 } });
    for (let i = 1; i <= 2; i++) for (const t of h.tokens(i)) h.crowdQuote(t, "0.40", "0.60");
    await h.engine.start();
    await h.run(50);
    const s = h.engine.status();
    const sent = h.eventsOf("place_sent").length;
    expect(s.queuedPlacements).toBe(24 - sent);
    expect(s.queuedPlacements).toBeGreaterThan(0);

    const sink = collectingStream();
    const log = createLogger({ level: "info", destination: sink, pretty: false });
    const noMarkets = { tokens: [], slugs: [], unquotable: [] } as unknown as QuotedMarkets;
    const reporter = new DaemonReporter(log, noMarkets, h.clock);
    reporter.started(h.engine);
    reporter.close();
    const line = sink.records().find((r) => String(r.msg).startsWith("started:"));
    expect(line?.msg).toContain(`${s.openOrders} open order(s), ${s.queuedPlacements} placement(s) queued,`);
    expect(line?.queuedPlacements).toBe(s.queuedPlacements);
    const stopping = h.engine.stop("SIGINT", 3_000);
    await h.run(3_000);
    await stopping;
  });
});
