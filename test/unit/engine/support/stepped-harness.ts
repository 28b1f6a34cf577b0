import { expect } from "vitest";
import { SteppedClock } from "../../../support/stepped-clock.js";
import { Harness, type HarnessOptions } from "./harness.js";

/**
 * A harness whose engine runs on a SteppedClock (wall time, which can step) over the exchange's
 * SimClock; started, quoting 0.47 / 0.53 around a 0.48 / 0.52 crowd.
 * @example const { h, wall, yes } = await steppedStarted(); wall.stepMs = -600_000;
 */
export async function steppedStarted(
  o: HarnessOptions = {},
): Promise<{ h: Harness; wall: SteppedClock; yes: string }> {
  let wall: SteppedClock | undefined;
  const h = new Harness({
    ...o,
    engineClock: (x) => {
      wall = new SteppedClock(x);
      return wall;
    },
  });
  if (wall === undefined) throw new Error("engine clock not built");
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  await h.engine.start();
  await h.run();
  expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  return { h, wall, yes };
}
