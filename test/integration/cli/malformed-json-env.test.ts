import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cleanEnv, runNode } from "../../support/child-run.js";

/*
 * README, Configuration: an MM_* variable holding JSON with a secret is refused, and "the error names
 * the setting and never prints the value". Malformed JSON (a missing bracket, easy to do by hand in a
 * shell) was echoed by the setting's "got …" (up to 60 characters), and a bare API key secret inside
 * it was printed whole: the shape check matches a bare secret only as the whole string, and main()'s
 * stderr scrub registered MM_API_KEY whole but not its secret part (review 18). Now such a variable is
 * "not valid JSON at character N", never quoted, and the secret part is scrubbed too.
 */

const secret = randomBytes(32).toString("base64url");
const apiKey = `mm_live_0123456789abcdef_${secret}`;

function mmConfig(extra: Record<string, string>) {
  return runNode(["--import", "tsx", "src/cli/main.ts", "config"], cleanEnv(extra));
}

describe("mm config: malformed JSON in an MM_* variable is not valid JSON, never quoted", () => {
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
