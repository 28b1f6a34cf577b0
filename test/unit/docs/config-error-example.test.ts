import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { packageRoot } from "../../../src/config/paths.js";

/*
 * README "Configuration" shows what a bad configuration prints. A review found it showing
 * `must be an http(s) URL` and `required when signing.maker is "vault"`, while mm prints, for `mm config --config ./live.json` with a non-http baseUrl and maker vault:
 *   config error: exchange.baseUrl: must start with http:// or https://, got "ftp://x" (in /abs/dir/live.json)
 *   config error: signing.vaultAddress: required when signing.maker is vault
 * The messages differ (wording; quotes around vault). Compared after dropping the echoed value
 * (`, got "…"`) and the file's folder, so either fix (README's text, or mm's message) passes it.
 * Cosmetic, but the README presents it as the output format an operator greps for.
 */

/** A line without the echoed value and the file's folder. */
const norm = (line: string): string =>
  line.replace(/, got "[^"]*"/, "").replace(/\(in [^)]*?([^/)]+)\)( \(code \w+\))?$/, "(in $1)$2");

const dir = mkdtempSync(join(tmpdir(), "mm-docs-cfg-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function readmeExample(): string[] {
  const readme = readFileSync(join(packageRoot(), "README.md"), "utf8");
  const block = readme.split("```text\n")[1]?.split("```")[0] ?? "";
  return block.split("\n").filter((l) => l.startsWith("config error: "));
}

describe("README config error example", () => {
  it("shows the lines mm config prints for such a file", async () => {
    writeFileSync(
      join(dir, "live.json"),
      JSON.stringify({ exchange: { baseUrl: "ftp://x" }, signing: { maker: "vault" } }),
    );
    let err = "";
    const code = await main(["config", "--config", "./live.json"], {
      stdout: () => {},
      stderr: (t) => {
        err += t;
      },
      env: {},
      cwd: dir,
    });
    expect(code).toBe(2);
    const example = readmeExample();
    expect(example).toHaveLength(2);
    const actual = err.split("\n").filter((l) => l !== "");
    for (const line of example) {
      const field = line.split(": ")[1] as string;
      const got = actual.find((l) => l.startsWith(`config error: ${field}: `));
      expect(got === undefined ? undefined : norm(got), field).toBe(norm(line));
    }
  });
});
