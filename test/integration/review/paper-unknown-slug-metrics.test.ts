import { describe, expect, it } from "vitest";
import { childSlots, spawnMm } from "../../e2e/support.js";
import { daemonEnv, startMock } from "../daemon/support.js";

/*
 * review18 (rv-paper): README, Running: configuration problems found before the start are named
 * "all in one exit 2 and before any log line: a run that cannot start never prints `metrics at …`
 * first". A misspelt slug in engine.markets (the commonest first-hour typo) is a configuration error,
 * exit 2 `config error: engine.markets: the exchange has no market "…"`, but it is found by the
 * market reads after the metrics server is up, so the run's first line is still
 * `metrics at http://…/metrics, liveness …, readiness …` and then it exits 2. (Review 17 Q2 fixed
 * this for the missing keys / markets / busy port, not for a slug the exchange does not list.)
 */

const slots = childSlots();

describe("mm run with a slug the exchange does not list", () => {
  it("exits 2 naming engine.markets, without a `metrics at` line first", async () => {
    const mock = await startMock();
    slots.mock = mock;
    const mm = spawnMm(["run"], daemonEnv(mock, ["arg-vs-fra-final-arg-wni"]));
    slots.mm = mm;
    expect(await mm.exited).toBe(2);
    expect(mm.stderr()).toContain(
      'config error: engine.markets: the exchange has no market "arg-vs-fra-final-arg-wni"',
    );
    // Was: the first record is "metrics at http://127.0.0.1:…/metrics, liveness …, readiness …".
    expect(mm.records.map((r) => r.msg)).not.toContainEqual(expect.stringMatching(/^metrics at /));
  }, 30_000);
});
