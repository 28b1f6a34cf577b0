import type { Intent } from "../../../src/execution/intents.js";
import type { FakeCall } from "./order-queue.fake-port.js";
import { place, type Rig, rig, runUntil } from "./order-queue.helpers.js";

/** One saturation scenario: many tokens requoting continuously against the fake exchange. */
export interface SaturationOptions {
  tokens: number;
  /** Each token requotes both sides this often (its phase is random). */
  requoteEveryMs: number;
  rateLimitPerMin: number;
  /** IP limit multiplier on both sides (an operator-whitelisted IP). */
  ipLimitFactor: number;
  seed: number;
  /** Requests in flight at most; it must cover rate × round trip (default 16). */
  concurrency?: number;
  /** The server's own limits per table bucket id where they differ from the table (FakePortOptions). */
  serverLimits?: Readonly<Record<string, number>>;
}

/** What a measurement window showed. */
export interface SaturationResult {
  seconds: number;
  placementsSent: number;
  sentPerSecond: number;
  /** The binding sustained place rate: min over place buckets of limit / window. */
  bindingPerSecond: number;
  /** placementsSent per second ÷ bindingPerSecond. */
  utilisation: number;
  responses429: number;
  shed: number;
  superseded: number;
  waitP50Ms: number;
  waitP99Ms: number;
  maxPlaceDepth: number;
  intents: number;
}

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const TICK_MS = 10;

/**
 * The saturation rig shared by the unit test and test/bench/queue.bench.ts: `tokens` tokens (two per
 * market), each sending a fresh placement for both sides every `requoteEveryMs` with a random urgency
 * (0–10 ticks), through the real OrderQueue and RateBudget to the fake port, which enforces the
 * spec's fixed windows (random phase) and counts every 429. Simulated time on a SimClock.
 */
export class SaturationSim {
  readonly r: Rig;
  readonly #o: SaturationOptions;
  readonly #u: () => number;
  readonly #phase: number[];
  #n = 0;
  #intents = 0;
  #measureFrom = 0;
  #waits: number[] = [];
  #maxDepth = 0;
  #base = { shed: 0, superseded: 0, intents: 0 };

  constructor(o: SaturationOptions) {
    this.#o = o;
    this.#u = lcg(o.seed);
    const u = this.#u;
    this.r = rig({
      port: {
        phaseMs: Math.floor(u() * 60_000),
        rateLimitPerMin: o.rateLimitPerMin,
        ipLimitFactor: o.ipLimitFactor,
        latency: () => ({ inMs: 2 + Math.floor(u() * 45), outMs: Math.floor(u() * 30) }),
        ...(o.serverLimits === undefined ? {} : { serverLimits: o.serverLimits }),
      },
      budget: { rateLimitPerMin: o.rateLimitPerMin, ipLimitFactor: o.ipLimitFactor, marginMs: 50 },
      queue: {
        concurrency: o.concurrency ?? 16,
        metrics: {
          waited: (op, ms) => {
            if (op === "place" && this.r.clock.now() >= this.#measureFrom) this.#waits.push(ms);
          },
          depth: (d) => {
            this.#maxDepth = Math.max(this.#maxDepth, d.place);
          },
        },
      },
    });
    this.#phase = Array.from({ length: o.tokens }, () => Math.floor(u() * o.requoteEveryMs));
    this.r.clock.setTimer(0, () => this.#tick());
  }

  /** Runs `seconds` more of simulated time. */
  async advance(seconds: number): Promise<void> {
    await runUntil(this.r.clock, this.r.clock.now() + seconds * 1000);
  }

  /** Starts a measurement window now (after a warm-up that spends the initial bursts). */
  markStart(): void {
    this.#measureFrom = this.r.clock.now();
    this.#waits = [];
    this.#maxDepth = 0;
    this.#base = {
      shed: this.r.queue.stats.shed,
      superseded: this.r.queue.stats.superseded,
      intents: this.#intents,
    };
  }

  /** Simulated seconds since markStart(). */
  get measuredSeconds(): number {
    return (this.r.clock.now() - this.#measureFrom) / 1000;
  }

  /** Figures since markStart(). */
  result(): SaturationResult {
    const now = this.r.clock.now();
    const seconds = (now - this.#measureFrom) / 1000;
    const inWindow = (c: FakeCall) => c.sentAt >= this.#measureFrom;
    const placed = this.r.port.of("place").filter((c) => inWindow(c) && !c.limited).length;
    const binding = Math.min(...this.r.port.rules.place.map((x) => (x.limit * 1000) / x.windowMs));
    const waits = [...this.#waits].sort((a, b) => a - b);
    const pct = (p: number) => waits[Math.min(waits.length - 1, Math.floor(p * waits.length))] ?? 0;
    return {
      seconds,
      placementsSent: placed,
      sentPerSecond: placed / seconds,
      bindingPerSecond: binding,
      utilisation: placed / seconds / binding,
      responses429: this.r.port.calls.filter((c) => inWindow(c) && c.limited).length,
      shed: this.r.queue.stats.shed - this.#base.shed,
      superseded: this.r.queue.stats.superseded - this.#base.superseded,
      waitP50Ms: pct(0.5),
      waitP99Ms: pct(0.99),
      maxPlaceDepth: this.#maxDepth,
      intents: this.#intents - this.#base.intents,
    };
  }

  #tick(): void {
    const now = this.r.clock.now();
    const batch: Intent[] = [];
    for (let i = 0; i < this.#o.tokens; i++) {
      if ((now + (this.#phase[i] as number)) % this.#o.requoteEveryMs >= TICK_MS) continue;
      for (const side of ["buy", "sell"] as const) {
        const urgency = Math.floor(this.#u() * 11);
        const price = (side === "buy" ? 400_000 : 500_000) + 10_000 * Math.floor(this.#u() * 10);
        batch.push(place(`s${this.#n++}`, { token: `t${i}`, market: `m${i >> 1}`, side, urgency, price }));
      }
    }
    this.#intents += batch.length;
    if (batch.length > 0) this.r.queue.enqueueAll(batch);
    this.r.clock.setTimer(TICK_MS, () => this.#tick());
  }
}
