import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cleanEnv, runNode } from "../../support/child-run.js";

/*
 * review18 (rv-paper): README, Configuration: an MM_* variable holding JSON with a secret "at any
 * depth, in a value or a map key" is refused, and "the error names the setting and never prints the
 * value". When the JSON is malformed (a missing bracket, easy to do by hand in a shell), the error
 * echoes the raw text (showValue: up to 60 characters), and a bare API key secret (the 43
 * base64url characters after the keyId) inside it is printed whole: secretShape matches a bare secret
 * only as the whole string (BARE_KEY_SECRET is anchored). The CLI's stderr scrub does not save it
 * either, even with that very key in MM_API_KEY: main()'s envSecrets registers the whole key, not its
 * secret part (the logger does register the part).
 */

const secret = randomBytes(32).toString("base64url");
const apiKey = `mm_live_0123456789abcdef_${secret}`;

function mmConfig(extra: Record<string, string>) {
  return runNode(["--import", "tsx", "src/cli/main.ts", "config"], cleanEnv(extra));
}

describe("mm config: a key secret inside malformed JSON of an MM_* variable is never printed", () => {
  it.each([
    ["MM_ENGINE_MARKETS", `["some-market", "${secret}"`],
    ["MM_MARKETS_TICK_SIZES", `["${secret}"`],
    ["MM_ENGINE_STRATEGY_BY_MARKET", `["x", "${secret}"`],
  ])(
    "%s holding the bare secret in malformed JSON: exit 2, the secret not on stderr",
    async (name, value) => {
      const r = await mmConfig({ [name]: value });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(name);
      // Was: `config error: engine.markets: must be an array of market slugs, got "[\"some-market\", \"<secret>\"" …`
      expect(r.stderr).not.toContain(secret);
      expect(r.stdout).not.toContain(secret);
    },
  );

  it("even with the same key set in MM_API_KEY (a registered secret), its secret part is not echoed", async () => {
    const r = await mmConfig({ MM_API_KEY: apiKey, MM_ENGINE_MARKETS: `["some-market", "${secret}"` });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain(secret);
  });
});
