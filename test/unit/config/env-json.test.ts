import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { jsonSyntaxProblem } from "../../../src/config/env-json.js";
import { loadConfig } from "../../../src/config/load.js";
import { showValue } from "../../../src/config/secret-shapes.js";
import { configError } from "./support.js";

/*
 * A JSON-valued MM_* variable that does not parse (a bracket left out in a shell) is reported as
 * not valid JSON, once, with a position and never its text: V8's parse message and the setting's
 * "got …" both quoted it, a key secret typed beside the bracket included (review 18).
 */
describe("malformed JSON in an MM_* variable", () => {
  const secret = randomBytes(32).toString("base64url");

  it("says where it breaks without quoting the text", () => {
    expect(jsonSyntaxProblem('{"a": 1}')).toBeNull();
    expect(jsonSyntaxProblem(`["x", "${secret}"`)).toBe(
      "is not valid JSON: it ends before it is complete (a missing bracket or quote?)",
    );
    expect(jsonSyntaxProblem('{"a":1,}')).toBe(
      "is not valid JSON at character 8 of 8 (JSON has no comments and no trailing commas)",
    );
    // V8: 'Unexpected token …, "<text>" is not valid JSON': no position, and the text is not repeated.
    expect(jsonSyntaxProblem('{"a":tru}')).toBe(
      "is not valid JSON (JSON has no comments and no trailing commas)",
    );
    expect(jsonSyntaxProblem(" ")).toBe("is empty, not JSON");
  });

  it("MM_ENGINE_STRATEGY: one line, no follow-on error about engine.strategy.name", () => {
    const e = configError(() => loadConfig({ env: { MM_ENGINE_STRATEGY: "{bad" } }));
    expect(e.lines()).toEqual([
      "engine.strategy: is not valid JSON at character 2 of 4 (JSON has no comments and no trailing commas) (from env MM_ENGINE_STRATEGY)",
    ]);
  });

  it("MM_RISK: not valid JSON rather than 'must be an object'", () => {
    const e = configError(() => loadConfig({ env: { MM_RISK: '{"order": ' } }));
    expect(e.lines()).toEqual([
      "risk: is not valid JSON: it ends before it is complete (a missing bracket or quote?) (from env MM_RISK)",
    ]);
  });

  it("MM_ENGINE_MARKETS as a comma list is still not JSON; as [ … it must be", () => {
    const e = configError(() => loadConfig({ env: { MM_ENGINE_MARKETS: `["a", "${secret}"` } }));
    expect(e.lines()[0]).toMatch(/^engine\.markets: is not valid JSON/);
    expect(e.message).not.toContain(secret);
  });

  it("showValue hides text holding a run that could be a key secret, keeps a long slug", () => {
    expect(showValue(`"${secret}"`)).not.toContain(secret);
    const slug = "will-the-central-bank-cut-rates-before-the-end-of-the-year";
    expect(showValue(slug)).toContain("will-the-central-bank");
  });
});
