import { standardNormal, type Uniform } from "./rng.js";

/** Parameters of the synthetic mid. */
export interface MidProcessSettings {
  /** Starting mid, price units. */
  readonly s0: number;
  /** σ, price units per √second. */
  readonly sigma: number;
  readonly dtMs: number;
  /** `normal`: s += σ√dt·Z; `binomial`: s += ±σ√dt with equal odds (the A–S paper's simulation). */
  readonly increments: "normal" | "binomial";
  /** Keep the mid inside [lo, hi] by reflection at the bounds (a price of the (0, 1) band). */
  readonly bounds: { readonly lo: number; readonly hi: number } | undefined;
}

/**
 * Arithmetic Brownian motion sampled every dt: s(t + dt) = s(t) + σ·√dt·ε, ε standard normal (or
 * ±1). With bounds, a step that leaves [lo, hi] is reflected back in (a reflected Brownian motion,
 * so the path keeps its local volatility and never sticks to an edge).
 * @example const p = new MidProcess({ s0: 0.5, sigma: 0.001, dtMs: 1000, increments: "normal", bounds: undefined }, u); p.step()
 */
export class MidProcess {
  readonly #p: MidProcessSettings;
  readonly #u: Uniform;
  readonly #scale: number;
  #s: number;

  constructor(p: MidProcessSettings, u: Uniform) {
    this.#p = p;
    this.#u = u;
    this.#scale = p.sigma * Math.sqrt(p.dtMs / 1000);
    this.#s = p.s0;
  }

  /** The current mid, price units. */
  get value(): number {
    return this.#s;
  }

  /** Moves one dt; returns the new mid. */
  step(): number {
    const eps = this.#p.increments === "binomial" ? (this.#u() < 0.5 ? -1 : 1) : standardNormal(this.#u);
    let s = this.#s + this.#scale * eps;
    const b = this.#p.bounds;
    if (b !== undefined) {
      for (let i = 0; i < 64 && (s < b.lo || s > b.hi); i++) s = s < b.lo ? 2 * b.lo - s : 2 * b.hi - s;
      s = Math.min(b.hi, Math.max(b.lo, s));
    }
    this.#s = s;
    return s;
  }
}
