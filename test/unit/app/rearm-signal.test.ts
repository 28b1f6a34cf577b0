import { describe, expect, it } from "vitest";
import { rearmOnSignal } from "../../../src/app/rearm-signal.js";
import { memoryLogger } from "../../integration/daemon/support.js";

/** A hand-written engine whose kill switch is tripped until re-armed. */
class FakeEngine {
  tripped = true;
  calls = 0;
  rearmKillSwitch(): boolean {
    this.calls++;
    const was = this.tripped;
    this.tripped = false;
    return was;
  }
}

describe("rearmOnSignal", () => {
  it("re-arms on SIGUSR2 while the daemon runs, says so when there is nothing to re-arm, and stops listening when it is done", async () => {
    const engine = new FakeEngine();
    let finish: () => void = () => {};
    const done = new Promise<void>((r) => {
      finish = r;
    });
    const { logger, sink } = memoryLogger("info");
    const before = process.listenerCount("SIGUSR2");
    const daemon = { engine, done };
    expect(rearmOnSignal(daemon, logger)).toBe(daemon);
    expect(process.listenerCount("SIGUSR2")).toBe(before + 1);

    process.emit("SIGUSR2", "SIGUSR2");
    expect(engine.tripped).toBe(false);
    process.emit("SIGUSR2", "SIGUSR2");
    expect(engine.calls).toBe(2);
    expect(sink.text()).toContain(
      "SIGUSR2: the kill switch is not tripped and has no drawdown; nothing to re-arm",
    );

    finish();
    await done;
    await new Promise((r) => setImmediate(r));
    expect(process.listenerCount("SIGUSR2")).toBe(before);
    process.emit("SIGUSR2", "SIGUSR2");
    expect(engine.calls).toBe(2);
  });
});
