import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { secretShape } from "../../../src/config/secret-shapes.js";

// Regression (found by test/fuzz/config.test.ts): the API-key shape began with
// `[A-Za-z0-9]+_`, which backtracks over every long alphanumeric run — a 40 kB config value took
// seconds to load and a megabyte one would take many minutes. One service character is enough.
describe("secretShape on long values", () => {
  it("answers in linear time", () => {
    for (const s of ["x".repeat(1_000_000), "9".repeat(1_000_000), `${"ab".repeat(500_000)}_live_`]) {
      const t = performance.now();
      expect(secretShape(s)).toBeNull();
      expect(performance.now() - t).toBeLessThan(1_000);
    }
    const key = `${"a".repeat(100_000)}_live_0123456789abcdef_${"k".repeat(43)}`;
    expect(secretShape(key)).toBe("an API key");
  });

  it("finds exactly what the backtracking pattern found", () => {
    const old = /[A-Za-z0-9]+_(?:live|test)_[0-9a-fA-F]{16}_[A-Za-z0-9_-]{43}/;
    const part = fc.constantFrom(
      "mm",
      "_",
      "live",
      "test",
      "0123456789abcdef",
      "k".repeat(43),
      "-",
      " ",
      "x",
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        const s = parts.join("");
        expect(secretShape(s) === "an API key" && !/^[A-Za-z0-9_-]{43}$/.test(s)).toBe(old.test(s));
      }),
      { numRuns: 2_000 },
    );
  });
});
