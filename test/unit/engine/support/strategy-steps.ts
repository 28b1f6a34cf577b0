import type { DesiredQuote } from "../../../../src/core/trading.js";
import type { ConfiguredStrategy } from "../../../../strategies/registry.js";
import { Harness, type HarnessOptions } from "./harness.js";

/** One bid at 0.47 and one ask at 0.53, 10 shares each: what the strategy tests' strategies quote when well. */
export const TWO_QUOTES: readonly DesiredQuote[] = [
  { side: "buy", level: 0, priceMicro: 470_000, sizeMicro: 10_000_000n },
  { side: "sell", level: 0, priceMicro: 530_000, sizeMicro: 10_000_000n },
];

/**
 * A harness quoting `s` on its first token, the crowd at 0.40 / 0.60, started and run 1 s (the
 * strategy's first steps done). `o` adds harness options.
 */
export async function startedWith(
  s: ConfiguredStrategy,
  o: Omit<HarnessOptions, "configured"> = {},
): Promise<{ h: Harness; yes: string }> {
  const h = new Harness({ ...o, configured: s });
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.40", "0.60");
  await h.engine.start();
  await h.run(1000);
  return { h, yes };
}

/** Moves the crowd's touch `n` times, one book change every `everyMs`: a quoting step each. */
export async function churn(h: Harness, tokenId: string, n: number, everyMs = 100): Promise<void> {
  for (let i = 0; i < n; i++) {
    h.crowdQuote(tokenId, i % 2 === 0 ? "0.41" : "0.40", "0.60");
    await h.run(everyMs);
  }
}

/** The log records whose message is `msg`. */
export const logsNamed = (h: Harness, msg: string) => h.logs.records().filter((r) => r.msg === msg);
