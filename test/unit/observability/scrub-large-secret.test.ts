import { describe, expect, it } from "vitest";
import { expandSecrets, scrub, secretScrubber } from "../../../src/observability/logger.js";

// Regression (found by test/fuzz/config.test.ts): a "secret" of tens of kilobytes (a garbage
// MM_API_KEY) made the scrubber's pattern too large for V8, so every scrub threw SyntaxError,
// and loading the configuration failed with it instead of a ConfigError (exit 1, not 2).
describe("scrubbing secrets too large for one regular expression", () => {
  const huge = `${"k".repeat(60_000)}{"a":`;

  it("scrubs them without throwing, exact occurrences replaced", () => {
    const secrets = expandSecrets([huge, "0xdeadbeefdeadbeef"]);
    const line = `key=${huge} pk=0xdeadbeefdeadbeef`;
    const out = scrub(line, secrets);
    expect(out).not.toContain(huge);
    expect(out).not.toContain("deadbeefdeadbeef");
    expect(out.length).toBeLessThan(100);
  });

  it("keeps case-insensitive matching for ordinary secrets", () => {
    expect(secretScrubber(expandSecrets(["0xABCDEF0123456789"]))("got abcdef0123456789!")).not.toContain(
      "abcdef",
    );
  });
});
