import { seededUniform, standardNormal, type Uniform } from "../synthetic/rng.js";

/**
 * A delay of the simulated network, in milliseconds of the SimClock: a number is a constant (the
 * original config form); a distribution is sampled once per message.
 */
export type LatencySpec = number | LatencyDistribution;

/** The sampled forms (config: `{"type": "uniform", …}`; `{"type": "constant", "ms"}` reads as a number). */
export type LatencyDistribution =
  /** Whole milliseconds, each of minMs…maxMs (inclusive) equally likely. */
  | { readonly type: "uniform"; readonly minMs: number; readonly maxMs: number }
  /**
   * medianMs · e^(σ·Z), Z standard normal, rounded to the ms: mean medianMs · e^(σ²/2) (before the
   * cap). Each draw is capped at `maxMs` (default LOGNORMAL_CAP_MEDIANS × medianMs, at most
   * LATENCY_MAX_MS).
   */
  | {
      readonly type: "lognormal";
      readonly medianMs: number;
      readonly sigma: number;
      readonly maxMs?: number;
    }
  /** One of the measured samples, each equally likely (a bootstrap), rounded to the ms. */
  | { readonly type: "empirical"; readonly samplesMs: readonly number[] };

/**
 * The longest delay any message gets, ms (one day; also the config's bound on every ms value). A
 * lognormal draw has no bound of its own: at σ = 5 one draw in a thousand exceeds a day, and
 * since a lane keeps its order, one such draw would hold back every later message on it.
 */
export const LATENCY_MAX_MS = 86_400_000;

/**
 * A lognormal lane's default cap, in medians. A day (LATENCY_MAX_MS) bounds nothing that matters:
 * with a 20 ms median and σ = 2, one draw in 30,000 held the lane over a minute, every later
 * message (cancels included) queued behind it. 100 medians is e^4.6: at σ ≤ 1 a draw reaches it
 * about twice in a million (the distribution unchanged in practice), at σ = 2 about one in a
 * hundred, at σ = 5 about 18 % (a heavy tail clipped into a spike: a larger `maxMs` keeps it,
 * knowing that each such draw stalls the lane).
 */
export const LOGNORMAL_CAP_MEDIANS = 100;

/**
 * A sampler of one latency spec: whole milliseconds ≥ 0 (the SimClock keeps integer time, so
 * timestamps the engine and the venue derive from it stay whole ms). A constant never draws.
 * @example latencySampler({ type: "uniform", minMs: 2, maxMs: 4 }, seededUniform(1, 0, "x"))() // 2, 3 or 4
 */
export function latencySampler(spec: LatencySpec, u: Uniform): () => number {
  if (typeof spec === "number") return () => spec;
  switch (spec.type) {
    case "uniform": {
      const { minMs, maxMs } = spec;
      const span = maxMs - minMs + 1;
      return () => minMs + Math.min(span - 1, Math.floor(u() * span));
    }
    case "lognormal": {
      const { medianMs, sigma } = spec;
      const maxMs = spec.maxMs ?? Math.min(LATENCY_MAX_MS, LOGNORMAL_CAP_MEDIANS * medianMs);
      return () => Math.min(maxMs, Math.round(medianMs * Math.exp(sigma * standardNormal(u))));
    }
    case "empirical": {
      const s = spec.samplesMs;
      return () => Math.round(s[Math.min(s.length - 1, Math.floor(u() * s.length))] as number);
    }
  }
}

/** Hands out the delay of each message of one connection. */
export interface Delay {
  /** Milliseconds from `now` until the next message, sent now, arrives. */
  next(now: number): number;
  /**
   * Whether a message whose delay is 0 must still wait behind the timers due now: a message sent
   * ahead of it may be arriving at this very ms, on a timer not fired yet (sampled lanes).
   */
  readonly queues?: boolean;
}

/**
 * One ordered connection of the simulated network (a WebSocket, or the order-entry path): each
 * message gets a sampled delay, but never arrives before the message sent ahead of it, as on one
 * TCP stream (arrival = max(now + sample, previous arrival)). With a constant the delay is always
 * that constant, so constant configs behave exactly as before distributions existed.
 */
export class LatencyLane implements Delay {
  readonly #draw: () => number;
  readonly #constant: number | undefined;
  /** Sampled lanes: a 0 ms message queues behind one due now (Delay.queues); constants never need to. */
  readonly queues: boolean;
  #lastArrival = Number.NEGATIVE_INFINITY;

  constructor(spec: LatencySpec, u: Uniform) {
    this.#constant = typeof spec === "number" ? spec : undefined;
    this.queues = this.#constant === undefined;
    this.#draw = latencySampler(spec, u);
  }

  next(now: number): number {
    if (this.#constant !== undefined) return this.#constant;
    const d = Math.max(this.#draw(), this.#lastArrival - now);
    this.#lastArrival = now + d;
    return d;
  }
}

/**
 * A lane seeded from the run's seed and a stream name, so each connection draws from its own
 * stream (adding a draw on one never shifts another's) and the same seed replays the same delays.
 * @example latencyLane({ type: "lognormal", medianMs: 20, sigma: 0.5 }, 7, "entry").next(clock.now())
 */
export function latencyLane(spec: LatencySpec, seed: number, stream: string): LatencyLane {
  return new LatencyLane(spec, seededUniform(seed, 0, `latency.${stream}`));
}

/**
 * How a spec appears in the summary: constants as numbers (the original form), distributions
 * as written, except that an empirical one is summarised by its sample count and range.
 */
export function latencyEcho(spec: LatencySpec): unknown {
  if (typeof spec === "number" || spec.type !== "empirical") return spec;
  const s = spec.samplesMs;
  let minMs = Number.POSITIVE_INFINITY;
  let maxMs = Number.NEGATIVE_INFINITY;
  for (const x of s) {
    if (x < minMs) minMs = x;
    if (x > maxMs) maxMs = x;
  }
  return { type: "empirical", samples: s.length, minMs, maxMs };
}

/**
 * The summary's `latency`: each hop's spec as latencyEcho spells it (a sweep checks a `--rank-by`
 * path into it against the same object before any point runs).
 * @example latencySummary({ feedMs: 5, entryMs: 20, responseMs: 20 }) // { feedMs: 5, entryMs: 20, responseMs: 20 }
 */
export function latencySummary(l: {
  readonly feedMs: LatencySpec;
  readonly entryMs: LatencySpec;
  readonly responseMs: LatencySpec;
}): { feedMs: unknown; entryMs: unknown; responseMs: unknown } {
  return {
    feedMs: latencyEcho(l.feedMs),
    entryMs: latencyEcho(l.entryMs),
    responseMs: latencyEcho(l.responseMs),
  };
}
