import { afterEach, describe, expect, it } from "vitest";
import { holdEarlySignals, releaseEarlySignals, takeEarlySignals } from "../../../src/app/early-signals.js";

afterEach(() => releaseEarlySignals());

const counts = () =>
  Object.fromEntries(
    (["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR2"] as const).map((s) => [s, process.listenerCount(s)]),
  );

describe("holdEarlySignals", () => {
  it("holds mm record's stop signals, not SIGUSR2 (nothing in mm record would take it)", () => {
    const before = counts();
    holdEarlySignals(["record", "--tokens", "1"]);
    expect(counts()).toEqual({
      SIGINT: (before.SIGINT ?? 0) + 1,
      SIGTERM: (before.SIGTERM ?? 0) + 1,
      SIGHUP: (before.SIGHUP ?? 0) + 1,
      SIGUSR2: before.SIGUSR2,
    });
    expect(takeEarlySignals(["SIGINT", "SIGTERM", "SIGHUP"])).toEqual([]);
    expect(counts()).toEqual(before);
  });

  it("holds nothing for a short command", () => {
    const before = counts();
    holdEarlySignals(["backtest"]);
    expect(counts()).toEqual(before);
  });

  it("adopts what bin/hold-signals.mjs held before tsx loaded (npm start): its handlers out, its signals first", () => {
    const before = counts();
    const key = Symbol.for("mm.preloadedSignals");
    const store = globalThis as unknown as Record<symbol, unknown>;
    const handlers = new Map<NodeJS.Signals, () => void>();
    for (const sig of ["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR2"] as const) {
      const h = () => undefined;
      process.on(sig, h);
      handlers.set(sig, h);
    }
    store[key] = { received: ["SIGINT"], handlers };
    holdEarlySignals(["paper"]);
    expect(store[key]).toBeUndefined();
    // Ours replaced the preload's: one handler each, as before the preload.
    expect(counts()).toEqual({
      SIGINT: (before.SIGINT ?? 0) + 1,
      SIGTERM: (before.SIGTERM ?? 0) + 1,
      SIGHUP: (before.SIGHUP ?? 0) + 1,
      SIGUSR2: (before.SIGUSR2 ?? 0) + 1,
    });
    process.emit("SIGTERM");
    expect(takeEarlySignals(["SIGINT", "SIGTERM"])).toEqual(["SIGINT", "SIGTERM"]);
  });
});
