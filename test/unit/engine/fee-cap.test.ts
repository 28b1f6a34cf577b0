import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { TokenMarket } from "../../../src/core/trading.js";
import { DEFAULT_VOLATILITY } from "../../../src/engine/engine-deps.js";
import { TokenTable } from "../../../src/engine/engine-tokens.js";
import { takeRecordFee } from "../../../src/engine/fee-recheck.js";
import type { RiskDecision } from "../../../src/risk/decision.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { smallConfig } from "../risk/helpers.js";

/*
 * A market's fee taken from its record (fee-recheck.ts takeRecordFee) is judged against the cap
 * (fee-cap.ts): above it the market is held (a market cancel-all, warned once), back within it the
 * hold ends (told at info) and the tokens are requoted after the hold is lifted, so their step quotes.
 */
const market = (tokenId: string, outcomeIndex: number): TokenMarket => ({
  tokenId,
  marketId: "m1",
  conditionId: "0xc1",
  outcome: outcomeIndex === 0 ? "YES" : "NO",
  outcomeIndex,
  tickMicro: 10_000,
  minSizeMicro: 1_000_000n,
  feeTakerBps: 0,
  negRisk: false,
  closesAtMs: undefined,
  status: "OPEN",
});

describe("a market's fee read above the cap, then back within it", () => {
  it("holds the market, then lets it be quoted again", () => {
    const sink = collectingStream();
    const risk = new RiskGuard(smallConfig());
    const enforced: RiskDecision[] = [];
    const requoted: { tokenId: string; held: string | undefined }[] = [];
    const deps = {
      log: pino({ level: "debug" }, sink),
      tokens: new TokenTable([market("11", 0), market("12", 1)], () => undefined, DEFAULT_VOLATILITY),
      risk,
      enforce: (d: RiskDecision | undefined) => {
        if (d !== undefined) enforced.push(d);
      },
      requote: (tokenId: string) => requoted.push({ tokenId, held: risk.marketUnquotable("m1") }),
    };
    expect(takeRecordFee(deps, "m1", 1500, "after a bad_signature")).toBe(true);
    expect(risk.marketUnquotable("m1")).toBe("FEE_TOO_HIGH");
    expect(enforced.map((d) => [d.reason, d.scope, d.marketId])).toEqual([
      ["market_unquotable", "market", "m1"],
    ]);
    expect(requoted).toEqual([
      { tokenId: "11", held: "FEE_TOO_HIGH" },
      { tokenId: "12", held: "FEE_TOO_HIGH" },
    ]);
    // Another fee still above the cap: no second warning or cancel-all.
    expect(takeRecordFee(deps, "m1", 2000, "after a bad_signature")).toBe(true);
    expect(enforced).toHaveLength(1);
    expect(sink.records().filter((r) => String(r.msg).includes("is above the cap"))).toHaveLength(1);
    requoted.length = 0;
    expect(takeRecordFee(deps, "m1", 30, "after the refusal")).toBe(true);
    expect(risk.marketUnquotable("m1")).toBeUndefined();
    expect(requoted).toEqual([
      { tokenId: "11", held: undefined },
      { tokenId: "12", held: undefined },
    ]);
    expect(sink.records().some((r) => r.msg === "market's feeTakerBps is within the cap again: quoted")).toBe(
      true,
    );
  });
});
