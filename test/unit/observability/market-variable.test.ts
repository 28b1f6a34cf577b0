import { describe, expect, it } from "vitest";
import { dashboardQueries } from "../../integration/observability/dashboards.js";
import { promtoolCase, promtoolInstalled } from "./promql.js";

// The Market drill-down's $market variable, evaluated as Prometheus answers it (label_values() as
// the PromQL it stands for, the integration test's translation): review 16 found it built from
// mm_book_state alone, whose series a settled market loses while its position and PnL stay.

describe.runIf(promtoolInstalled())("Market drill-down $market variable", () => {
  it("offers a settled market (position and PnL exported, books retired) beside a watched one", () => {
    const variable = dashboardQueries().find((q) => q.id === "mm-market.json / $market");
    expect(variable).toBeDefined();
    const r = promtoolCase({
      series: [
        // arg-win is quoted: its book is watched and it has a position.
        { series: 'mm_book_state{market="arg-win",outcome="YES",state="synced"}', values: "1x20" },
        { series: 'mm_position_shares{market="arg-win",outcome="YES"}', values: "10x20" },
        // bra-win has settled: its books are retired (no mm_book_state), its position stays.
        { series: 'mm_position_shares{market="bra-win",outcome="YES"}', values: "25x20" },
        { series: 'mm_pnl_realised_usdc{market="bra-win"}', values: "3x20" },
      ],
      exprTests: [
        {
          expr: `clamp_max(${variable?.expr ?? ""}, 1)`,
          evalTime: "4m",
          expSamples: [
            { labels: '{market="arg-win"}', value: 1 },
            { labels: '{market="bra-win"}', value: 1 },
          ],
        },
      ],
    });
    expect(r, r.out).toMatchObject({ status: 0 });
  });
});
