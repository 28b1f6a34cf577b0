/**
 * How long this process's event loop could not run, over time. The fault suite's bot, wire tap and
 * mock exchange all run on this one loop (with the other scenarios of the wave), so while it is
 * stalled — the box's other work holding the CPU, or another scenario's work holding the loop —
 * none of them can move: a cancel's round trip takes that much longer in wall-clock time without the
 * bot being any slower. The stale-quote invariant adds the stall to its grace (checkNoStaleQuotes).
 */
export interface LoopStall {
  /** Milliseconds of [from, to] (Date.now() scale) during which the loop was stalled. */
  within(from: number, to: number): number;
  stop(): void;
}

/** Ticks this often; a tick later than this by more than NOISE_MS counts as a stall. */
const TICK_MS = 10;
const NOISE_MS = 20;

/**
 * Starts sampling the event loop: a timer every TICK_MS whose lateness is the stall just ended
 * (it ended at the late tick, and began that long before it). Unref'd: it never keeps a run alive.
 * @example const stall = watchLoopStall(); … stall.within(span.from, span.to); stall.stop();
 */
export function watchLoopStall(): LoopStall {
  const stalls: { from: number; to: number }[] = [];
  let expected = Date.now() + TICK_MS;
  const timer = setInterval(() => {
    const now = Date.now();
    const late = now - expected;
    if (late > NOISE_MS) stalls.push({ from: now - late, to: now });
    expected = now + TICK_MS;
  }, TICK_MS);
  timer.unref();
  return {
    within: (from, to) => {
      let ms = 0;
      for (const s of stalls) ms += Math.max(0, Math.min(s.to, to) - Math.max(s.from, from));
      return ms;
    },
    stop: () => clearInterval(timer),
  };
}
