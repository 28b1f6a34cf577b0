import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";

/*
 * `MM_SHUTDOWN_TIMEOUT=5000 mm run` (the setting is MM_SHUTDOWN_TIMEOUT_MS) used to start with the
 * default 10 s and not a word on stderr: the operator believed a setting was in force that was not.
 * A variable that close to a setting's is now refused (exit 2) with the name it meant; any other
 * unknown MM_* variable gets one warning line and the command goes on.
 */

const dir = mkdtempSync(join(tmpdir(), "mm-unknown-env-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function mm(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    env,
    cwd: dir,
  });
  return { code, out, err };
}

const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

describe("mm commands and MM_* variables naming no setting", () => {
  it("mm config refuses near misses, one line each naming the setting meant, never the value", async () => {
    const r = await mm(["config"], {
      MM_EXCHANGE_BASEURL: "http://10.0.0.1:8080",
      MM_SHUTDOWN_TIMEOUT: "5000",
      MM_API_KEYFILE: "/run/secrets/key-path",
    });
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(lines(r.err)).toEqual([
      expect.stringMatching(
        /^config error: MM_API_KEYFILE: names no setting: did you mean MM_API_KEY_FILE\?/,
      ),
      expect.stringMatching(
        /^config error: MM_EXCHANGE_BASEURL: names no setting: did you mean MM_EXCHANGE_BASE_URL\?/,
      ),
      expect.stringMatching(
        /^config error: MM_SHUTDOWN_TIMEOUT: names no setting: did you mean MM_SHUTDOWN_TIMEOUT_MS\?/,
      ),
    ]);
    expect(r.err).not.toMatch(/10\.0\.0\.1|5000|key-path/);
  });

  it("mm config warns once per far-off variable, skips the tooling's, and prints the config", async () => {
    const r = await mm(["config"], {
      MM_SQLSETTINGS_DATASOURCE: "x",
      MM_FUZZ_RUNS: "5",
      MM_LOG_LEVEL: "warn",
    });
    expect(r.code).toBe(0);
    expect(lines(r.err)).toEqual([
      "config warning: MM_SQLSETTINGS_DATASOURCE: names no setting and is ignored (mm config --help lists the settings' variables)",
    ]);
    expect(JSON.parse(r.out).log.level).toBe("warn");
  });

  it("mm run warns before its config errors and refuses a near miss among them", async () => {
    const r = await mm(["run"], { MM_OTHER_PROGRAM: "1", MM_RISC: '{"order":{"maxSize":"5"}}' });
    expect(r.code).toBe(2);
    const got = lines(r.err);
    expect(got[0]).toMatch(/^config warning: MM_OTHER_PROGRAM: names no setting and is ignored/);
    expect(got).toContainEqual(expect.stringMatching(/^config error: MM_RISC: .*did you mean MM_RISK\?/));
    expect(got.filter((l) => l.includes("MM_OTHER_PROGRAM"))).toHaveLength(1);
  });

  it("mm paper checks the same way before its mock starts", async () => {
    const r = await mm(["paper", "--port", "0"], { MM_OTHER_PROGRAM: "1", MM_ENGINE_MARKET: "*" });
    expect(r.code).toBe(2);
    expect(lines(r.err)).toEqual([
      expect.stringMatching(/^config warning: MM_OTHER_PROGRAM: /),
      expect.stringMatching(
        /^config error: MM_ENGINE_MARKET: names no setting: did you mean MM_ENGINE_MARKETS\?/,
      ),
    ]);
  });
});
