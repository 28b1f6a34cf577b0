import { describe, expect, it } from "vitest";
import { fillsOf, T, u, world } from "./support/mirror-world.js";

/*
 * CrowdMirror rule 2 (src/backtest/replay/crowd-mirror.ts) and config/backtest/README.md rule 3:
 * "Liquidity the bot took stays taken until the level empties (no double fills); a snapshot
 * re-lists what the recording shows." A level the snapshot lists at the size the exchange's book
 * already had is no level change at all, so the frame as a whole (onBookApplied) re-lists it.
 */
describe("replay: a recorded snapshot after the bot took a level", () => {
  it("re-lists the level at the size the snapshot shows", () => {
    const w = world();
    w.snapshot([["0.48", "100"]], [["0.52", "20"]]);
    w.bot("buy", "0.52", "20", "ioc");
    expect(fillsOf(w)).toEqual(["taker buy 520000 20000000"]);
    expect(w.mirror.crowdSize(T, "sell", u("0.52"))).toBe(0n); // taken (rule 2)
    // A fresh snapshot (e.g. the recorder's resync) shows 20 at 0.52.
    w.snapshot([["0.48", "100"]], [["0.52", "20"]]);
    expect(w.mirror.crowdSize(T, "sell", u("0.52"))).toBe(u("20"));
    expect(w.bot("buy", "0.52", "5", "ioc")).toMatchObject({ status: "FILLED" });
  });

  it("re-lists a partly taken level at the snapshot's new size, not the remainder plus the growth", () => {
    const w = world();
    w.snapshot([["0.48", "100"]], [["0.52", "20"]]);
    w.bot("buy", "0.52", "15", "ioc");
    expect(w.mirror.crowdSize(T, "sell", u("0.52"))).toBe(u("5"));
    w.snapshot([["0.48", "100"]], [["0.52", "25"]]);
    expect(w.mirror.crowdSize(T, "sell", u("0.52"))).toBe(u("25"));
  });
});
