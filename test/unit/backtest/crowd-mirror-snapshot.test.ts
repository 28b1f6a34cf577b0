import { describe, expect, it } from "vitest";
import { fillsOf, T, u, world } from "./support/mirror-world.js";

/*
 * CrowdMirror rule 2: liquidity the bot took stays taken until the level empties (no double fills),
 * through a snapshot too. A snapshot acts by its level changes only, as a delta with the same
 * changes would: a recording's snapshot may be the recorder's resync or just a rotation's (the same
 * book the deltas gave), so re-listing taken liquidity there would make fills depend on how often
 * the recording rotated, and fill a resting bot order twice from one recorded level.
 */
describe("CrowdMirror: a recorded snapshot after the bot took liquidity", () => {
  it("a level the snapshot lists unchanged stays as the bot left it", () => {
    const w = world();
    w.snapshot([["0.48", "100"]], [["0.52", "20"]]);
    w.bot("buy", "0.52", "20", "ioc");
    expect(fillsOf(w)).toEqual(["taker buy 520000 20000000"]);
    w.snapshot([["0.48", "100"]], [["0.52", "20"]]);
    expect(w.mirror.crowdSize(T, "sell", u("0.52"))).toBe(0n);
    expect(w.bot("buy", "0.52", "5", "ioc")).toMatchObject({ status: "REJECTED" }); // nothing left to meet
  });

  it("a level the snapshot changes moves by the change, as a delta would move it", () => {
    const w = world();
    w.snapshot([["0.48", "100"]], [["0.52", "20"]]);
    w.bot("buy", "0.52", "15", "ioc");
    expect(w.mirror.crowdSize(T, "sell", u("0.52"))).toBe(u("5"));
    w.snapshot([["0.48", "100"]], [["0.52", "25"]]);
    expect(w.mirror.crowdSize(T, "sell", u("0.52"))).toBe(u("10"));
  });

  it("a snapshot bringing a level through a resting bot order fills it once, as a delta does", () => {
    const viaDelta = world();
    viaDelta.snapshot([["0.48", "100"]], [["0.55", "20"]]);
    viaDelta.bot("buy", "0.53", "50");
    viaDelta.delta(["ask", "0.55", "0"], ["ask", "0.52", "20"]);
    const viaSnapshot = world();
    viaSnapshot.snapshot([["0.48", "100"]], [["0.55", "20"]]);
    viaSnapshot.bot("buy", "0.53", "50");
    viaSnapshot.snapshot([["0.48", "100"]], [["0.52", "20"]]);
    expect(fillsOf(viaSnapshot)).toEqual(["maker buy 530000 20000000"]);
    expect(fillsOf(viaSnapshot)).toEqual(fillsOf(viaDelta));
  });

  it("a snapshot growing a level through the bot's order fills the growth only", () => {
    const w = world();
    w.snapshot([["0.48", "100"]], [["0.55", "20"]]);
    w.bot("buy", "0.53", "50");
    w.delta(["ask", "0.52", "8"]);
    w.snapshot([["0.48", "100"]], [["0.52", "12"]]);
    expect(fillsOf(w)).toEqual(["maker buy 530000 8000000", "maker buy 530000 4000000"]);
  });
});
