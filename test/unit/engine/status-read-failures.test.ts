import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import { READ_FAILURES_BEFORE_WARN } from "../../../src/engine/read-failures.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { parseExposition } from "../observability/exposition.js";
import { Harness } from "./support/harness.js";

/*
 * A market status read that keeps failing. Before, the closed-market watch logged each failed
 * record read at debug only: a market whose record never read (a 404 for a market not yet public)
 * stayed closed, unquoted, for the whole run with nothing at warn and no metric. Now a read failing
 * READ_FAILURES_BEFORE_WARN times in a row is warned of once (not per attempt) and counted in
 * mm_market_status_reads_failing{watch}, cleared when it reads again; the open-market sweep's reads
 * (GET /api/markets) alike.
 */

const RECHECK_MS = 5_000;
const warnings = (h: Harness, text: string) =>
  h.logs
    .text()
    .split("\n")
    .filter((l) => l.includes('"level":40') && l.includes(text)).length;
const infos = (h: Harness, text: string) =>
  h.logs
    .text()
    .split("\n")
    .filter((l) => l.includes('"level":30') && l.includes(text)).length;
const failing = (h: Harness) => h.eventsOf("market_reads_failing").map((e) => `${e.watch}:${e.failing}`);

describe("status reads that keep failing", () => {
  it("a closed market's record: warned once, counted, cleared when it reads", async () => {
    const h = new Harness({
      markets: 2,
      latencyMs: 50,
      status: (i) => (i === 1 ? "PRE_MARKET" : "OPEN"),
      options: { marketRecheckMs: RECHECK_MS },
    });
    h.silentStatus = true;
    let unreadable = true;
    h.exchange.marketRecord = async ({ marketId }): Promise<MarketRecordStatus> => {
      if (unreadable) throw new Error("GET /api/markets/{slug}: 404 market_not_found");
      return { status: h.venue.market(marketId)?.status ?? "OPEN" };
    };
    const starting = h.engine.start();
    await h.run(500);
    await starting;

    await h.run(RECHECK_MS * (READ_FAILURES_BEFORE_WARN - 1));
    expect(failing(h)).toEqual([]); // one failure is a blip: debug only
    await h.run(RECHECK_MS * 6);
    expect(warnings(h, "market's record keeps failing to read")).toBe(1);
    expect(failing(h)).toEqual(["closed:1"]);

    unreadable = false;
    h.venue.setMarketStatus("m1", "OPEN");
    await h.run(RECHECK_MS);
    expect(infos(h, "market's record read again")).toBe(1);
    expect(failing(h)).toEqual(["closed:1", "closed:0"]);
    expect(h.logs.text()).toContain("market is now OPEN (its record, read while it was closed)");
  });

  it("the open-market sweep's list: warned once, counted, cleared when it reads", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    let lists = 0;
    let unreadable = true;
    h.exchange.listedMarkets = async () => {
      lists++;
      if (unreadable) throw new Error("GET /api/markets: 503 exchange_unavailable");
      return h.venue.markets().map((m) => ({ marketId: m.marketId, status: m.status }));
    };
    const [a] = h.tokens(1);
    h.crowdQuote(a, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;

    await h.run(RECHECK_MS * 8);
    expect(lists).toBeGreaterThanOrEqual(7);
    expect(warnings(h, "the market list (GET /api/markets) keeps failing to read")).toBe(1);
    expect(failing(h)).toEqual(["open:1"]);

    unreadable = false;
    await h.run(RECHECK_MS);
    expect(infos(h, "the market list (GET /api/markets) read again")).toBe(1);
    expect(failing(h)).toEqual(["open:1", "open:0"]);
  });

  it("is exported as mm_market_status_reads_failing{watch}", async () => {
    const registry = new Registry();
    const metrics = createMetrics({ registry, defaultMetrics: false });
    const gauge = async () =>
      Object.fromEntries(
        (parseExposition(await registry.metrics()).get("mm_market_status_reads_failing")?.samples ?? []).map(
          (s) => [s.labels.watch, s.value],
        ),
      );
    expect(await gauge()).toEqual({ closed: 0, open: 0 });
    metrics.listener({ type: "market_reads_failing", atMs: 0, watch: "closed", failing: 2 });
    expect(await gauge()).toEqual({ closed: 2, open: 0 });
    metrics.listener({ type: "market_reads_failing", atMs: 0, watch: "closed", failing: 0 });
    expect(await gauge()).toEqual({ closed: 0, open: 0 });
  });
});
