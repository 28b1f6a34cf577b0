import { afterEach, describe, expect, it } from "vitest";
import { holdEarlySignals, releaseEarlySignals } from "../../../src/app/early-signals.js";
import { rearmOnSignal } from "../../../src/app/rearm-signal.js";
import { memoryLogger } from "../../integration/daemon/support.js";

/** A hand-written engine whose kill switch is tripped until re-armed. */
class FakeEngine {
  tripped = true;
  calls = 0;
  constructor(readonly started = true) {}
  rearmKillSwitch(): boolean {
    this.calls++;
    const was = this.tripped;
    this.tripped = false;
    return was;
  }
  status(): { started: boolean } {
    return { started: this.started };
  }
}

/** A daemon over `engine` and the function that ends it. */
function fakeDaemon(engine: FakeEngine): {
  daemon: { engine: FakeEngine; done: Promise<void> };
  finish: () => void;
} {
  let finish: () => void = () => {};
  const done = new Promise<void>((r) => {
    finish = r;
  });
  return { daemon: { engine, done }, finish };
}

const tick = () => new Promise((r) => setImmediate(r));

afterEach(() => releaseEarlySignals());

describe("rearmOnSignal", () => {
  it("re-arms on SIGUSR2 while the daemon runs, says so when there is nothing to re-arm, and stops listening when it is done", async () => {
    const engine = new FakeEngine();
    const { daemon, finish } = fakeDaemon(engine);
    const { logger, sink } = memoryLogger("info");
    const before = process.listenerCount("SIGUSR2");
    const rearm = rearmOnSignal(logger);
    expect(process.listenerCount("SIGUSR2")).toBe(before + 1);
    expect(rearm.started(daemon)).toBe(daemon);

    process.emit("SIGUSR2", "SIGUSR2");
    expect(engine.tripped).toBe(false);
    process.emit("SIGUSR2", "SIGUSR2");
    expect(engine.calls).toBe(2);
    expect(sink.text()).toContain(
      "SIGUSR2: the kill switch is not tripped and has no drawdown; nothing to re-arm",
    );

    finish();
    await daemon.done;
    await tick();
    expect(process.listenerCount("SIGUSR2")).toBe(before);
    process.emit("SIGUSR2", "SIGUSR2");
    expect(engine.calls).toBe(2);
  });

  it("listens from before the start: a SIGUSR2 during it is applied once, when the daemon has started", () => {
    const { logger, sink } = memoryLogger("info");
    const before = process.listenerCount("SIGUSR2");
    const rearm = rearmOnSignal(logger);
    try {
      process.emit("SIGUSR2", "SIGUSR2");
      process.emit("SIGUSR2", "SIGUSR2");
      expect(sink.text()).toContain(
        "SIGUSR2 during start-up: the kill switch is re-armed once the daemon has started",
      );
      const engine = new FakeEngine();
      rearm.started(fakeDaemon(engine).daemon);
      expect({ tripped: engine.tripped, calls: engine.calls }).toEqual({ tripped: false, calls: 1 });
    } finally {
      rearm.close();
    }
    expect(process.listenerCount("SIGUSR2")).toBe(before);
  });

  it("does not apply an early SIGUSR2 to an engine that never started (a stop came during the start)", () => {
    const { logger, sink } = memoryLogger("info");
    const rearm = rearmOnSignal(logger);
    try {
      process.emit("SIGUSR2", "SIGUSR2");
      const engine = new FakeEngine(false);
      rearm.started(fakeDaemon(engine).daemon);
      expect(engine.calls).toBe(0);
      expect(sink.text()).toContain("not applied, the daemon stopped before it started");
    } finally {
      rearm.close();
    }
  });

  it("takes over a SIGUSR2 held since the process began (holdEarlySignals)", async () => {
    holdEarlySignals(["paper"]);
    process.kill(process.pid, "SIGUSR2");
    await new Promise((r) => setTimeout(r, 100));
    const { logger } = memoryLogger("info");
    const rearm = rearmOnSignal(logger);
    try {
      const engine = new FakeEngine();
      rearm.started(fakeDaemon(engine).daemon);
      expect(engine.calls).toBe(1);
    } finally {
      rearm.close();
    }
  });
});
