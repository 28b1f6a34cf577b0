import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { packageRoot } from "../../../src/config/paths.js";

/*
 * README "Configuration" quotes what `mm config` prints for a misnamed or unparsable MM_* variable.
 * A README walk (session 21) found two quotes mm does not print:
 * - `config error: MM_SHUTDOWN_TIMEOUT: names no setting: did you mean MM_SHUTDOWN_TIMEOUT_MS?`,
 *   where mm adds ` (unset or rename it)`;
 * - "(a bracket left out) is reported as `is not valid JSON at character N of M`", where a JSON
 *   value missing its closing bracket is reported as `is not valid JSON: it ends before it is
 *   complete …` (the character form is for a stray bracket or comma inside the text).
 * config-error-example.test.ts holds the ```text block; this holds these inline quotes: the first is
 * compared whole with the line mm prints; the JSON ones must be in README and in what mm prints for
 * their trigger (N and M: any number).
 */

const README = readFileSync(join(packageRoot(), "README.md"), "utf8").replace(/\s+/g, " ");

/** What `mm config` prints on stderr with `env` as its whole environment. */
async function configStderr(env: Record<string, string>): Promise<string> {
  let err = "";
  await main(["config"], {
    stdout: () => {},
    stderr: (t) => {
      err += t;
    },
    env,
    cwd: packageRoot(),
  });
  return err;
}

/** The quote as a pattern over one stderr line: N and M stand for numbers. */
function pattern(quote: string): RegExp {
  const escaped = quote.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\b[NM]\b/g, "\\d+");
  return new RegExp(escaped);
}

const CASES: readonly { quote: string; env: Record<string, string> }[] = [
  { quote: "is not valid JSON at character N of M", env: { MM_RISK: '{"order":{"maxSize":"5",}}' } },
  { quote: "is not valid JSON: it ends before it is complete", env: { MM_RISK: '{"order":{"maxSize":"5"}' } },
];

describe("README Configuration: the quoted config error lines", () => {
  it("the misnamed-variable example is the whole line mm config prints", async () => {
    const quoted = /`(config error: MM_SHUTDOWN_TIMEOUT: [^`]*)`/.exec(README)?.[1];
    expect(quoted, "README quotes the MM_SHUTDOWN_TIMEOUT line").toBeDefined();
    const lines = (await configStderr({ MM_SHUTDOWN_TIMEOUT: "5000" })).split("\n");
    expect(lines).toContain(quoted);
  });

  for (const c of CASES) {
    it(`README quotes \`${c.quote}\`, and mm config prints it`, async () => {
      expect(README.includes(`\`${c.quote}\``), "README quotes it").toBe(true);
      expect(await configStderr(c.env)).toMatch(pattern(c.quote));
    });
  }
});
