import { describe, expect, it } from "vitest";
import { panelExpr, promtoolCase, promtoolInstalled } from "../observability/promql.js";

// Review 16 (observability): Overview panels that read wrong on a healthy bot. Each case feeds
// promtool the series a healthy bot exports and evaluates the panel's own expression.

describe.runIf(promtoolInstalled())("review16 observability: Overview panels", () => {
  it("Books synced is below 100% while a configured book is refused for good", () => {
    // Two tokens: YES synced, NO refused (untracked: 0 in every mm_book_state, 1 in mm_book_refused).
    // Half the configured books are synced; the stat divides by sum(mm_book_state), which the
    // refused token is not in, and shows 100%.
    const expr = panelExpr("mm-overview.json", "Books synced");
    const s = (outcome: string, state: string, v: string) => ({
      series: `mm_book_state{market="arg-win",outcome="${outcome}",state="${state}"}`,
      values: v,
    });
    const r = promtoolCase({
      series: [
        s("YES", "synced", "1x20"),
        s("YES", "resyncing", "0x20"),
        s("YES", "stale", "0x20"),
        s("NO", "synced", "0x20"),
        s("NO", "resyncing", "0x20"),
        s("NO", "stale", "0x20"),
        { series: 'mm_book_refused{market="arg-win",outcome="YES"}', values: "0x20" },
        { series: 'mm_book_refused{market="arg-win",outcome="NO"}', values: "1x20" },
      ],
      exprTests: [{ expr, evalTime: "4m", expSamples: [{ value: 0.5 }] }],
    });
    expect(r, r.out).toMatchObject({ status: 0 });
  });
});
