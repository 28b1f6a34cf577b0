import type { MockHarness } from "../mock/http/harness.js";

/**
 * Settles `p` while moving the harness's SimClock to each timer due within `maxJumpMs` (the rate
 * budget's waits; the engine's other timers are further away), one real millisecond between moves
 * so the real HTTP exchange answers in between.
 * @returns its value and the clock time it settled at (the loop may jump once more after that)
 */
export async function pumpClockAt<T>(
  h: MockHarness,
  p: Promise<T>,
  maxJumpMs = 61_000,
): Promise<{ value: T; at: number }> {
  let done = false;
  const watched = p.then((value) => ({ value, at: h.clock.now() }));
  const end = () => {
    done = true;
  };
  watched.then(end, end);
  const giveUp = Date.now() + 20_000;
  while (!done) {
    await new Promise((r) => setTimeout(r, 1));
    const next = h.clock.nextDeadline();
    if (next !== undefined && next - h.clock.now() <= maxJumpMs) h.clock.advanceTo(next);
    if (Date.now() > giveUp) throw new Error("pump: the run did not settle within 20 s");
  }
  return watched;
}

/** {@link pumpClockAt}'s value only. */
export async function pumpClock<T>(h: MockHarness, p: Promise<T>, maxJumpMs = 61_000): Promise<T> {
  return (await pumpClockAt(h, p, maxJumpMs)).value;
}
