import { expect } from "vitest";
import { Harness } from "./harness.js";

/**
 * A started engine whose market's hard cap (10) equals its bid (0.47 × 10 on the YES token): every
 * share filled, or still resting, counts against a cap with no room left, so a replacement sized
 * into room it should not have shows at once.
 */
export async function quotingAtCap(): Promise<{ h: Harness; yes: string }> {
  const risk = { inventory: { perMarket: { soft: "10", hard: "10" } } };
  const h = new Harness({ risk, latencyMs: 50 });
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(1_000);
  await starting;
  expect(h.botQuotes(yes).filter((q) => q.startsWith("buy"))).toEqual(["buy 0.47 10"]);
  return { h, yes };
}
