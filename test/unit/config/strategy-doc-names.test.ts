import { describe, expect, it } from "vitest";
import { engineSchema } from "../../../src/config/schema-engine.js";
import { STRATEGY_NAMES } from "../../../strategies/registry.js";

describe("engine.strategy's doc", () => {
  // `mm config --docs` and README's settings table come from this text: a strategy added to the
  // registry must appear in it without a second hand edit (strategies/README.md, "Writing a strategy").
  it("names exactly the registered strategies, in registry order", () => {
    const doc = engineSchema.engine.strategy.doc;
    const listed = /\{"name": ((?:"[^"]+"(?: \| )?)+),/.exec(doc)?.[1];
    expect(listed?.split(" | ").map((n) => JSON.parse(n))).toEqual([...STRATEGY_NAMES]);
  });
});
