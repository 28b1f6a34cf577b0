import type { DesiredQuote } from "../src/core/trading.js";
import { avellanedaStoikov } from "./avellaneda-stoikov.js";
import { bands } from "./bands.js";
import { glft } from "./glft.js";
import { ParamReader, StrategyParamsError } from "./params.js";
import type { Strategy, StrategyContext } from "./types.js";

/** Every strategy by name. */
export const STRATEGIES: Readonly<Record<string, Strategy<unknown>>> = Object.freeze({
  [bands.name]: bands as Strategy<unknown>,
  [avellanedaStoikov.name]: avellanedaStoikov as Strategy<unknown>,
  [glft.name]: glft as Strategy<unknown>,
});

/** The names `parseStrategyConfig` accepts. */
export const STRATEGY_NAMES: readonly string[] = Object.freeze(Object.keys(STRATEGIES));

/** A strategy with its validated parameters bound: what the engine calls per book update. */
export interface ConfiguredStrategy {
  readonly name: string;
  /** The validated parameters (for logs and reports). */
  readonly params: unknown;
  quote(ctx: StrategyContext): DesiredQuote[];
}

/**
 * The strategy called `name`, or undefined.
 * @example getStrategy("glft")?.name // "glft"
 */
export function getStrategy(name: string): Strategy<unknown> | undefined {
  return Object.hasOwn(STRATEGIES, name) ? STRATEGIES[name] : undefined;
}

/**
 * Validates a per-market strategy entry of the config, `{ name, params }` (params default `{}`),
 * and binds the parameters. Throws StrategyParamsError (`strategy_params_invalid`) listing every
 * issue as `field: problem`, with params fields prefixed `params.`.
 * @example
 * const s = parseStrategyConfig({ name: "bands", params: { bands: [{ margin: "0.02", size: "10" }] } });
 * s.quote(ctx); // DesiredQuote[]
 */
export function parseStrategyConfig(raw: unknown): ConfiguredStrategy {
  const r = new ParamReader(raw, { root: "strategy" });
  const name = r.choice("name", STRATEGY_NAMES);
  const given = r.value("params");
  const rawParams = given === undefined ? {} : given;
  const strategy = r.issues.length === 0 ? getStrategy(name) : undefined;
  let params: unknown;
  if (strategy !== undefined) {
    try {
      params = strategy.parseParams(rawParams);
    } catch (err) {
      if (!(err instanceof StrategyParamsError)) throw err;
      for (const i of err.issues) r.issue(i.field === "params" ? i.field : `params.${i.field}`, i.message);
    }
  }
  r.finish(strategy?.name ?? "strategy");
  if (strategy === undefined) throw new StrategyParamsError("strategy", r.issues);
  return bind(strategy, params);
}

/**
 * Validates `rawParams` with `strategy`'s own parser and binds them, for any `Strategy<P>`,
 * registered or not: how a test or a backtest run from code tries a strategy before it is in
 * STRATEGIES (a replay config's `strategy` is a ConfiguredStrategy). Throws the parser's
 * StrategyParamsError as it is (fields without the `params.` prefix).
 * @example
 * const config = { ...parseReplayConfig([file]), strategy: configureStrategy(mine, { halfSpread: "0.01" }) };
 * await runBacktest({ config, data });
 */
export function configureStrategy<P>(strategy: Strategy<P>, rawParams: unknown): ConfiguredStrategy {
  return bind(strategy, strategy.parseParams(rawParams));
}

function bind<P>(strategy: Strategy<P>, params: P): ConfiguredStrategy {
  return { name: strategy.name, params, quote: (ctx) => strategy.quote(ctx, params) };
}
