import type { ConfiguredStrategy } from "../../strategies/registry.js";
import type { StrategyContext } from "../../strategies/types.js";
import { MmError } from "../core/errors.js";
import type { DesiredQuote } from "../core/trading.js";
import type { StrategyHealth } from "./strategy-health.js";

/**
 * One call of a token's strategy, guarded: its quotes, or undefined when it failed — it threw, or
 * returned something that is not an array of quote objects (`strategy_output_invalid`): the
 * caller then withdraws the token's quotes (never a made-up price). Failures and slow calls go to
 * `health`, which counts each (events) and throttles the log. The call is timed on the engine
 * clock's monotonic reading: live, the time it held the event loop (it cannot be pre-empted
 * in-thread, only measured); on a backtest's SimClock, which does not move during a call, 0, so a
 * backtest's log and output stay deterministic. A slow call's quotes stand (README, Strategies).
 */
export function callStrategy(
  health: StrategyHealth,
  tokenId: string,
  strategy: ConfiguredStrategy,
  ctx: StrategyContext,
  atMs: number,
): DesiredQuote[] | undefined {
  const start = health.mono();
  let quotes: DesiredQuote[] | undefined;
  let failure: unknown;
  try {
    quotes = checkedOutput(strategy.quote(ctx));
  } catch (err) {
    failure = err;
  }
  health.timed(tokenId, strategy.name, health.mono() - start, atMs);
  if (quotes === undefined) health.failed(tokenId, strategy.name, failure, atMs);
  else health.succeeded(tokenId, strategy.name);
  return quotes;
}

/**
 * The strategy's output when it is an array of objects, else a throw (`strategy_output_invalid`)
 * that the caller logs and takes as no quote. Only the type stands between a strategy and the
 * engine, and a hole of `new Array<DesiredQuote>(n)`, an undefined return or an async `quote`'s
 * promise passes it: read by the guard, it threw out of the step (the other tokens of that flush
 * unquoted, the process stopped on an uncaughtException). A field of a quote object is the risk
 * guard's to judge (`invalid_quote`). No allocation.
 */
function checkedOutput(out: unknown): DesiredQuote[] {
  // An async quote that rejects would reach the process as an unhandledRejection, which stops mm
  // run: its output is already this step's failure (logged), so its later outcome is dropped.
  if (isThenable(out)) out.then(undefined, () => undefined);
  if (!Array.isArray(out)) {
    throw new MmError("strategy_output_invalid", `quote returned ${kindOf(out)}, not an array of quotes`);
  }
  // An index loop: for…of and forEach disagree on holes, and a hole is what to find.
  for (let i = 0; i < out.length; i++) {
    const q: unknown = out[i];
    if (typeof q !== "object" || q === null) {
      throw new MmError("strategy_output_invalid", `quote returned ${kindOf(q)} at [${i}], not a quote`);
    }
  }
  return out as DesiredQuote[];
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";
}

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (isThenable(v)) return "a promise";
  return typeof v === "object" ? "an object" : typeof v;
}
