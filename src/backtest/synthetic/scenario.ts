import type { AvellanedaStoikovParams } from "../../../strategies/avellaneda-stoikov.js";
import { microToString } from "../../book/micro.js";
import { toWei } from "../../core/wei.js";
import { ConfigReader, layerConfigs } from "../config-reader.js";
import { Issues } from "../errors.js";
import { tick } from "../replay/replay-config.js";
import { readSimSettings, SIM_SECTIONS, type SimSettings } from "../settings.js";
import type { FillModelSettings } from "./intensity-flow.js";
import type { MidProcessSettings } from "./mid-process.js";

/** The most Monte-Carlo paths one synthetic run takes (the scenario's `paths`, or `--paths`). */
export const MAX_PATHS = 1_000_000;

/**
 * What a scenario's left-out keys take, in the scenario file's own spelling (prices and sizes
 * decimal strings). config/backtest/README.md's scenario table lists these (pinned by
 * test/unit/docs/scenario-defaults.test.ts): the tick is the replay's 0.01, not 1 micro, so a
 * scenario that quotes finer than a cent must say `market.tick`.
 */
export const SCENARIO_DEFAULTS = {
  seed: 1,
  paths: 100,
  startMs: 1_700_000_000_000,
  process: {
    s0: "0.5",
    sigma: 0,
    dtMs: 1_000,
    horizonMs: 3_600_000,
    increments: "normal",
    bounded: true,
  },
  fills: { A: 1, k: 100, probability: "linear", size: "1" },
  market: { tick: "0.01", minSize: "0.000001", feeTakerBps: 0, closesAtHorizon: true },
  book: { size: "1000" },
} as const;

const D = SCENARIO_DEFAULTS;

/**
 * The nearest the synthetic book's mid comes to 0 or 1, micro-units: its one level a side sits at
 * least a micro-unit from the mid and no price is below 0.000001 or above 0.999999, so a mid of
 * 0.000001 would give the locked book bid = ask = 0.000001, which the engine does not quote on.
 */
export const EDGE_MICRO = 2;

/** A validated synthetic scenario (`mm backtest --scenario FILE`). */
export interface Scenario extends SimSettings {
  readonly description: string | undefined;
  readonly strategyRaw: unknown;
  readonly seed: number;
  readonly paths: number;
  /** Epoch ms of t = 0 (any fixed value: it only anchors the clock). */
  readonly startMs: number;
  readonly horizonMs: number;
  readonly process: MidProcessSettings;
  readonly fills: FillModelSettings;
  readonly market: {
    readonly tickMicro: number;
    readonly minSizeMicro: bigint;
    readonly feeTakerBps: number;
    /** The market closes at the horizon (A–S's T − t shrinks to 0), else it has no close. */
    readonly closesAtHorizon: boolean;
  };
  /** Size of the synthetic book's one level per side, micro-shares. */
  readonly bookSizeMicro: bigint;
}

/**
 * Validates a scenario (or several layered, later files winning). Throws BacktestError
 * `scenario_invalid` listing every bad field. Units: prices in whole units, σ per √second,
 * A per second, k per price unit, times in ms (see config/backtest/README.md).
 * @example parseScenario([JSON.parse(readFileSync("config/backtest/as-paper.json", "utf8"))])
 */
export function parseScenario(layers: readonly unknown[]): Scenario {
  const issues = new Issues();
  const r = new ConfigReader(issues);
  const keys = [
    ...SIM_SECTIONS,
    "description",
    "seed",
    "paths",
    "startMs",
    "process",
    "fills",
    "market",
    "book",
  ];
  const root = r.section(layerConfigs(layers) ?? {}, "", keys);
  const sim = readSimSettings(root, r);
  const p = r.section(root.process, "process", ["s0", "sigma", "dtMs", "horizonMs", "increments", "bounded"]);
  const f = r.section(root.fills, "fills", ["A", "k", "probability", "size"]);
  const m = r.section(root.market, "market", ["tick", "minSize", "feeTakerBps", "closesAtHorizon"]);
  const b = r.section(root.book, "book", ["size"]);
  if (root.process === undefined) issues.add("process", "is required");
  if (root.fills === undefined) issues.add("fills", "is required");
  const tickMicro = tick(r, m, "market", Number(toWei(D.market.tick)));
  const s0Micro = r.micro(p, "process", "s0", D.process.s0, { positive: true });
  if (s0Micro >= 1_000_000n) issues.add("process.s0", "must lie in (0, 1)");
  const dtMs = r.num(p, "process", "dtMs", D.process.dtMs, { gt: 0, max: 86_400_000, int: true });
  const horizonMs = r.num(p, "process", "horizonMs", D.process.horizonMs, {
    gt: 0,
    max: 10 * 365 * 86_400_000,
    int: true,
  });
  if (horizonMs < dtMs) issues.add("process.horizonMs", `must be at least one dtMs step (${dtMs} ms)`);
  else if (horizonMs % dtMs !== 0)
    issues.add("process.horizonMs", `must be a whole number of dtMs steps (${dtMs} ms)`);
  const bounded = r.bool(p, "process", "bounded", D.process.bounded);
  // Reflected inside [tick, 1 − tick], and never nearer an edge than the book allows (a 1-micro tick).
  const loMicro = Math.max(tickMicro, EDGE_MICRO);
  const lo = loMicro / 1e6;
  // A bounded path starting outside its range would show a first mid the process never returns to
  // (or a locked first book) and jump in by reflection on its first step.
  const inBand = s0Micro > 0n && s0Micro < 1_000_000n;
  if (bounded && inBand && (s0Micro < BigInt(loMicro) || s0Micro > BigInt(1_000_000 - loMicro)))
    issues.add(
      "process.s0",
      `must lie in [${microToString(loMicro)}, ${microToString(1_000_000 - loMicro)}], the range a bounded mid is kept in at tick ${microToString(tickMicro)} (or set process.bounded to false)`,
    );
  const description = typeof root.description === "string" ? root.description : undefined;
  const scenario: Scenario = {
    ...sim,
    // No time-driven requote unless asked for: the synthetic world moves only at its dt steps (the
    // mid, whose frame requotes every token at that step's time, and the fills drawn there against
    // the quotes resting), as in the A–S paper's simulation, which quotes once per step. A requote
    // between steps would rest quotes of a later τ at the next draw: another scheme, at one extra
    // step per token per interval (engine.requoteIntervalMs).
    engine: { requoteIntervalMs: 0, ...sim.engine },
    description,
    strategyRaw: root.strategy,
    seed: r.num(root, "", "seed", D.seed, { min: 0, max: 2 ** 32, int: true }),
    paths: r.num(root, "", "paths", D.paths, { min: 1, max: MAX_PATHS, int: true }),
    startMs: r.num(root, "", "startMs", D.startMs, { min: 0, int: true }),
    horizonMs,
    process: {
      s0: Number(s0Micro) / 1e6,
      sigma: r.num(p, "process", "sigma", D.process.sigma, { min: 0 }),
      dtMs,
      increments: r.oneOf(p, "process", "increments", ["normal", "binomial"] as const, D.process.increments),
      bounds: bounded ? { lo, hi: 1 - lo } : undefined,
    },
    fills: {
      A: r.num(f, "fills", "A", D.fills.A, { min: 0 }),
      k: r.num(f, "fills", "k", D.fills.k, { min: 0 }),
      probability: r.oneOf(
        f,
        "fills",
        "probability",
        ["linear", "exponential"] as const,
        D.fills.probability,
      ),
      sizeMicro: r.micro(f, "fills", "size", D.fills.size, { positive: true }),
    },
    market: {
      tickMicro,
      minSizeMicro: r.micro(m, "market", "minSize", D.market.minSize, { positive: true }),
      feeTakerBps: r.num(m, "market", "feeTakerBps", D.market.feeTakerBps, { min: 0, max: 1000, int: true }),
      closesAtHorizon: r.bool(m, "market", "closesAtHorizon", D.market.closesAtHorizon),
    },
    bookSizeMicro: r.micro(b, "book", "size", D.book.size, { positive: true }),
  };
  // A–S reads T − t from a fixed horizonSeconds or the market's close; a market that never closes
  // and no horizonSeconds would run every path without a single quote.
  if (
    !scenario.market.closesAtHorizon &&
    sim.strategy?.name === "avellaneda-stoikov" &&
    (sim.strategy.params as AvellanedaStoikovParams).horizonSeconds === undefined
  ) {
    issues.add(
      "market.closesAtHorizon",
      "false leaves avellaneda-stoikov without a horizon (T − t), so it would never quote: set strategy.params.horizonSeconds, or leave closesAtHorizon true",
    );
  }
  issues.throwIfAny("scenario_invalid", "scenario");
  return scenario;
}
