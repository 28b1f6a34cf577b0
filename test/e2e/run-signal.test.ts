import { describe, expect, it } from "vitest";
import { createMockExchange } from "../../src/mock/mock-exchange.js";
import {
  daemonEnv,
  market,
  openOnMock,
  SCENARIO,
  seedMarket,
  waitFor,
} from "../integration/daemon/support.js";
import { childSlots, msg, spawnMm } from "./support.js";

const slots = childSlots();

describe("mm run as a child process against a mock exchange in the test process", () => {
  it("SIGTERM while quoting live books: every quote cancelled, zero open orders on the mock, exit 0", async () => {
    // The default scenario with its flow: the books move and takers trade against our quotes.
    slots.mock = await createMockExchange({ scenario: SCENARIO, flow: true });
    const slugs = SCENARIO.markets.slice(0, 4).map((m) => m.slug);
    slots.mm = spawnMm(["run"], daemonEnv(slots.mock, slugs));
    await slots.mm.waitFor(msg("engine started"), 15_000, "the engine to start");
    const m = slots.mock;
    await waitFor(() => openOnMock(m).length >= 16, 5_000, "quotes on the mock");
    // Requotes are in flight while the books move; the stop must still leave nothing behind.
    await new Promise((r) => setTimeout(r, 1_000));
    slots.mm.child.kill("SIGTERM");
    expect(await slots.mm.exited).toBe(0);
    expect(openOnMock(slots.mock)).toEqual([]);
    expect(slots.mm.stderr()).toContain("mm run: stopped (SIGTERM); exit 0");
    const stopped = slots.mm.records.find(msg("engine stopped: no open orders"));
    expect(stopped).toBeDefined();
  });

  it("SIGHUP twice, as a closing terminal sends it: every quote cancelled, zero open orders, exit 0", async () => {
    slots.mock = await createMockExchange({ scenario: SCENARIO, flow: true });
    const slugs = SCENARIO.markets.slice(0, 2).map((m) => m.slug);
    slots.mm = spawnMm(["run"], daemonEnv(slots.mock, slugs));
    await slots.mm.waitFor(msg("engine started"), 15_000, "the engine to start");
    const m = slots.mock;
    await waitFor(() => openOnMock(m).length >= 8, 5_000, "quotes on the mock");
    // Every answer now takes 300 ms: the second hangup lands while the cancels are in flight.
    m.admin.setHttpLatency(300);
    slots.mm.child.kill("SIGHUP");
    await slots.mm.waitFor(msg("engine stopping: cancelling every quote"), 5_000, "the stop to begin");
    slots.mm.child.kill("SIGHUP");
    expect(await slots.mm.exited).toBe(0);
    expect(openOnMock(slots.mock)).toEqual([]);
    expect(slots.mm.stderr()).toContain("mm run: SIGHUP: cancelling every quote");
    expect(slots.mm.stderr()).toContain("mm run: SIGHUP while stopping: the stop goes on");
    expect(slots.mm.stderr()).toContain("mm run: stopped (SIGHUP); exit 0");
    expect(slots.mm.records.find(msg("engine stopped: no open orders"))).toBeDefined();
  });

  it("a stop the exchange is too slow for ends within shutdown.timeoutMs with exit 1, saying so", async () => {
    slots.mock = await createMockExchange({ scenario: SCENARIO, flow: false });
    const arg = market("arg-vs-fra-final-arg-win");
    seedMarket(slots.mock, arg, "0.50", "0.60");
    slots.mm = spawnMm(["run"], daemonEnv(slots.mock, [arg.slug], { MM_SHUTDOWN_TIMEOUT_MS: "1000" }));
    await slots.mm.waitFor(msg("engine started"), 15_000, "the engine to start");
    const m = slots.mock;
    await waitFor(() => openOnMock(m).length >= 4, 3_000, "quotes on the mock");
    m.admin.setHttpLatency(5_000); // every answer, cancels included, now takes 5 s
    const t0 = performance.now();
    slots.mm.child.kill("SIGTERM");
    expect(await slots.mm.exited).toBe(1);
    expect(performance.now() - t0).toBeLessThan(2_500);
    expect(slots.mm.stderr()).toMatch(
      /mm run: stopped \(\d+ order\(s\) may still be open\); exit 1|the stop overran 1000 ms/,
    );
  });

  it("refuses to start on an unknown market slug with a config error (exit 2), sending nothing", async () => {
    slots.mock = await createMockExchange({ scenario: SCENARIO, flow: false });
    slots.mm = spawnMm(
      ["run"],
      daemonEnv(slots.mock, [market("arg-vs-fra-final-arg-win").slug, "no-such-market"]),
    );
    expect(await slots.mm.exited).toBe(2);
    expect(slots.mm.stderr()).toContain(
      'config error: engine.markets: the exchange has no market "no-such-market"',
    );
    expect(openOnMock(slots.mock)).toEqual([]);
  });
});
