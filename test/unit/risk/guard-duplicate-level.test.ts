import { describe, expect, it } from "vitest";
import { RiskGuard } from "../../../src/risk/guard.js";
import { ctx, px, q, smallConfig } from "./helpers.js";

/*
 * One quote per side and level is a rule of every strategy (the order manager keys orders by it),
 * but nothing enforced it: a custom strategy that numbered two ladder rungs alike (`level: i >> 1`)
 * had the second silently ignored by the order manager (the first desired wins its level), with no
 * decision, no log line, nothing counted. And the unsent duplicate still counted among our own
 * extremes: a duplicate bid at or above our ask took that sound ask down (own_quotes_crossed),
 * though the duplicate never rests.
 */
describe("RiskGuard.filter: a second quote on a side and level", () => {
  const guard = () => new RiskGuard(smallConfig());
  const touch = (bid: string, ask: string) => ({ ...ctx(), bestBidMicro: px(bid), bestAskMicro: px(ask) });
  const reasons = (r: {
    decisions: { reason: string; side: string | undefined; level?: number | undefined }[];
  }) => r.decisions.map((d) => `${d.reason} ${d.side} L${d.level}`);

  it("is dropped as invalid_quote naming the duplicate; the first on the level is kept", () => {
    const desired = [
      q("buy", "0.47", 20),
      q("buy", "0.46", 20),
      q("sell", "0.53", 20),
      q("sell", "0.54", 20, 1),
    ];
    const r = guard().filter(touch("0.40", "0.60"), desired, 0);
    expect(r.allowed).toEqual([desired[0], desired[2], desired[3]]);
    expect(reasons(r)).toEqual(["invalid_quote buy L0"]);
    expect(r.decisions[0]?.detail).toMatchObject({ price: "0.46", duplicateOf: "0.47" });
  });

  it("out of order too: a later quote on a level seen before, whatever came between", () => {
    const desired = [q("sell", "0.53", 20), q("buy", "0.47", 20), q("sell", "0.55", 20)];
    const r = guard().filter(touch("0.40", "0.60"), desired, 0);
    expect(r.allowed).toEqual([desired[0], desired[1]]);
    expect(reasons(r)).toEqual(["invalid_quote sell L0"]);
  });

  it("crosses nothing of ours: a duplicate bid above our ask does not take the ask down", () => {
    const desired = [q("buy", "0.47", 20), q("buy", "0.51", 20), q("sell", "0.50", 20)];
    const r = guard().filter(touch("0.40", "0.60"), desired, 0);
    expect(r.allowed).toEqual([desired[0], desired[2]]);
    expect(reasons(r)).toEqual(["invalid_quote buy L0"]);
  });

  it("distinct levels at one price are not duplicates", () => {
    const desired = [q("buy", "0.47", 20, 0), q("buy", "0.47", 20, 1), q("sell", "0.53", 20, 0)];
    expect(guard().filter(touch("0.40", "0.60"), desired, 0)).toEqual({ allowed: desired, decisions: [] });
  });
});
