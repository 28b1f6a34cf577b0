import { describe, expect, it } from "vitest";
import { LiveClock } from "../../../src/core/live-clock.js";

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/*
 * Node's setTimeout takes at most 2^31 − 1 ms (24.8 days): asked for more, it fires after 1 ms.
 * The renewal timer of quotes signed with signing.orderExpirySeconds of 25 days or more (the setting
 * allows a year) then fired at once, found nothing due, armed again: a timer every millisecond, a
 * scan of every live order each time, for the whole run.
 */
describe("LiveClock: waits beyond setTimeout's 2^31 − 1 ms", () => {
  it("a 30-day timer does not fire at once", async () => {
    const clock = new LiveClock();
    let fired = false;
    const id = clock.setTimer(30 * 86_400_000, () => {
      fired = true;
    });
    await wait(30);
    expect(fired).toBe(false);
    clock.cancelTimer(id);
  });

  it("a wait longer than one timer's limit is taken in steps, and fires once at its end", async () => {
    const clock = new LiveClock({ maxTimerMs: 10 });
    const t0 = performance.now();
    const fired: number[] = [];
    clock.setTimer(45, () => fired.push(performance.now() - t0));
    await wait(120);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toBeGreaterThanOrEqual(44);
  });

  it("a stepped wait cancelled between its steps never fires", async () => {
    const clock = new LiveClock({ maxTimerMs: 10 });
    let fired = false;
    const id = clock.setTimer(40, () => {
      fired = true;
    });
    await wait(25);
    clock.cancelTimer(id);
    await wait(50);
    expect(fired).toBe(false);
  });
});
