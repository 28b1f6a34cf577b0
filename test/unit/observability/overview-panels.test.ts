import { describe, expect, it } from "vitest";
import { panelExpr, promtoolCase, promtoolInstalled } from "./promql.js";

// Overview panels must read right on a healthy bot: each case feeds promtool the series such a bot
// exports and evaluates the panel's own expression (review 16 found both reading wrong).

describe.runIf(promtoolInstalled())("Overview dashboard panels", () => {
  it("Exchange error ratio reads 0 when the only rejections are routine cancel rejections (as MmHighErrorRate)", () => {
    // A busy healthy bot: 9 placements accepted and 1 cancel answered not_cancellable (the order
    // filled first) per scrape. alerts.yml says such a cancel rejection "is routine ... so it is not
    // counted" and MmHighErrorRate leaves it out; the Overview panel counts every `rejected`, so it
    // shows a 10% "error ratio" the alert deliberately ignores.
    const expr = panelExpr("mm-overview.json", "Exchange error ratio");
    const r = promtoolCase({
      series: [
        {
          series:
            'mm_http_request_duration_seconds_count{endpoint="POST /api/orders/cancel",outcome="rejected"}',
          values: "0+1x40",
        },
        {
          series:
            'mm_http_request_duration_seconds_count{endpoint="POST /api/orders/place",outcome="accepted"}',
          values: "0+9x40",
        },
      ],
      exprTests: [{ expr, evalTime: "5m", expSamples: [{ value: 0 }] }],
    });
    expect(r, r.out).toMatchObject({ status: 0 });
  });

  it("Exchange error ratio still counts a rejected placement and a failed cancel", () => {
    const expr = panelExpr("mm-overview.json", "Exchange error ratio");
    const c = (endpoint: string, outcome: string, values: string) => ({
      series: `mm_http_request_duration_seconds_count{endpoint="${endpoint}",outcome="${outcome}"}`,
      values,
    });
    const r = promtoolCase({
      series: [
        c("POST /api/orders/place", "accepted", "0+7x40"),
        c("POST /api/orders/place", "rejected", "0+1x40"),
        c("POST /api/orders/cancel", "ambiguous", "0+1x40"),
        c("POST /api/orders/cancel", "rejected", "0+1x40"),
      ],
      // Rounded: sum()'s float addition order varies between runs (0.2 or 0.19999999999999998).
      exprTests: [{ expr: `round(${expr}, 0.001)`, evalTime: "5m", expSamples: [{ value: 0.2 }] }],
    });
    expect(r, r.out).toMatchObject({ status: 0 });
  });

  it("Books synced is below 100% while a configured book is refused for good", () => {
    // Two tokens: YES synced, NO refused (untracked: 0 in every mm_book_state, 1 in mm_book_refused).
    // Half the configured books are synced; divided by sum(mm_book_state) alone, which the refused
    // token is not in, the stat showed 100%.
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
