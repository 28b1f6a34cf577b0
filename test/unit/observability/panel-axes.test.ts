import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// A per-interval increase() read on the same axis as a gauge or a per-second rate reads as the
// same unit, and its scale changes with the graph's interval: review 16 found panels mixing them.
// Every panel plotting both gives each increase() target the right axis and the others the left.

const DIR = join(import.meta.dirname, "../../../config/grafana/dashboards");

interface Override {
  matcher: { id: string; options: string };
  properties: { id: string; value: unknown }[];
}
interface Panel {
  title: string;
  type: string;
  targets?: { refId: string; expr: string }[];
  fieldConfig?: { overrides?: Override[] };
  panels?: Panel[];
}

function panels(): { file: string; panel: Panel }[] {
  const out: { file: string; panel: Panel }[] = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith(".json"))) {
    const d = JSON.parse(readFileSync(join(DIR, file), "utf8")) as { panels: Panel[] };
    const walk = (ps: Panel[] | undefined) => {
      for (const panel of ps ?? []) {
        out.push({ file, panel });
        walk(panel.panels);
      }
    };
    walk(d.panels);
  }
  return out;
}

/** The axis placement an override gives one refId's series ("auto": the left axis). */
function placement(panel: Panel, refId: string): unknown {
  const o = panel.fieldConfig?.overrides?.find(
    (x) => x.matcher.id === "byFrameRefID" && x.matcher.options === refId,
  );
  return o?.properties.find((p) => p.id === "custom.axisPlacement")?.value ?? "auto";
}

describe("dashboard panels mixing a per-interval increase with another quantity", () => {
  it("put every increase() on its own right axis and the rest on the left", () => {
    const wrong: string[] = [];
    for (const { file, panel } of panels()) {
      if (panel.type !== "timeseries") continue;
      const targets = panel.targets ?? [];
      const isIncrease = (expr: string) => /\bincrease\(/.test(expr);
      const increases = targets.filter((t) => isIncrease(t.expr));
      if (increases.length === 0 || increases.length === targets.length) continue;
      for (const t of targets) {
        const want = isIncrease(t.expr) ? "right" : "auto";
        const got = placement(panel, t.refId);
        if (got !== want) wrong.push(`${file} / ${panel.title} / ${t.refId}: ${String(got)}, want ${want}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
