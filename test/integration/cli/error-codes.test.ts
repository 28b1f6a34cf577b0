import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { errorCode, errorLine, UsageError } from "../../../src/cli/command.js";
import { COMMANDS } from "../../../src/cli/commands.js";
import { main } from "../../../src/cli/main.js";
import { packageRoot } from "../../../src/config/paths.js";

/*
 * README names error codes (`output_dir_missing`, `output_stdout_unsupported`, `config_invalid`…),
 * but stderr used to show only the message: an operator grepping stderr, or a log shipper keying
 * on the code, found nothing (session 21's README walk). Every command's error line now ends with
 * `(code <code>)`; each command's error path is run here, through main as `mm` runs it.
 */

const dir = mkdtempSync(join(tmpdir(), "mm-error-codes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "bad-scenario.json"), JSON.stringify({ markets: "none" }));

/** `mm argv…` in process with `env` as its whole environment, from `dir`. */
async function mm(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; err: string }> {
  let err = "";
  const code = await main(argv, {
    stdout: () => {},
    stderr: (t) => {
      err += t;
    },
    env,
    cwd: dir,
  });
  return { code, err };
}

const AS_PAPER = join(packageRoot(), "config/backtest/as-paper.json");

/** Per command: an error path, the exit code and the line it prints (the code at its end). */
const CASES: Record<string, { argv: string[]; env?: Record<string, string>; exit: number; line: RegExp }> = {
  run: {
    argv: ["run", "--no-such-flag"],
    exit: 2,
    line: /^mm run: Unknown option '--no-such-flag'.* \(code usage_error\)$/,
  },
  paper: {
    argv: ["paper", "--port", "x"],
    exit: 2,
    line: /^mm paper: --port: not a port: x \(code usage_error\)$/,
  },
  config: {
    argv: ["config"],
    env: { MM_SHUTDOWN_TIMEOUT: "5000" },
    exit: 2,
    line: /^config error: MM_SHUTDOWN_TIMEOUT: names no setting: .* \(code config_invalid\)$/,
  },
  mock: {
    argv: ["mock", "--scenario", "bad-scenario.json", "--port", "0"],
    exit: 2,
    line: /^scenario error: .* \(in .*bad-scenario\.json\) \(code scenario_invalid\)$/,
  },
  record: {
    argv: ["record", "--tokens", "12"],
    exit: 2,
    line: /^mm record: .*--out.* \(code usage_error\)$/,
  },
  backtest: {
    argv: ["backtest", "--scenario", AS_PAPER, "--out", "no/such/summary.json"],
    exit: 2,
    line: /^mm backtest: --out .*no\/such\/summary\.json: its folder .* does not exist .* \(code output_dir_missing\)$/,
  },
  report: {
    argv: ["report", "--journal", "missing.sqlite"],
    exit: 2,
    line: /^mm report: .*missing\.sqlite.* \(code journal_not_found\)$/,
  },
  import: {
    argv: ["import", "--format", "polymarket-price-change-csv", "in.csv", "-"],
    exit: 2,
    line: /^mm import: OUT -: stdout is not supported.* \(code output_stdout_unsupported\)$/,
  },
};

describe("every mm command names the error's code on its error line", () => {
  it("has a case for every command", () => {
    expect(Object.keys(CASES).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });

  for (const [name, c] of Object.entries(CASES)) {
    it(`mm ${name}`, async () => {
      const r = await mm(c.argv, c.env);
      expect(r.code, r.err).toBe(c.exit);
      expect(r.err.split("\n"), r.err).toContainEqual(expect.stringMatching(c.line));
    });
  }

  it("mm with an unknown command or option: usage_error", async () => {
    const r = await mm(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.err.split("\n")[0]).toBe('mm: unknown command "frobnicate" (code usage_error)');
    expect((await mm(["--frobnicate"])).err.split("\n")[0]).toBe(
      'mm: unknown option "--frobnicate" (code usage_error)',
    );
  });

  it("README's output_dir_missing example is the line mm backtest prints", async () => {
    const readme = readFileSync(join(packageRoot(), "README.md"), "utf8").replace(/\s+/g, " ");
    const quoted = /`(mm backtest: --out \/tmp\/no\/such\/summary\.json: [^`]*)`/.exec(readme)?.[1];
    expect(quoted, "README quotes the line").toBeDefined();
    const r = await mm(["backtest", "--scenario", AS_PAPER, "--out", "/tmp/no/such/summary.json"]);
    expect(r.err).toBe(`${quoted}\n`);
  });
});

describe("errorLine / errorCode", () => {
  it("puts the code of a list of problems on its first line, before the colon", () => {
    expect(errorLine("mm backtest: ", "x.json: sweep file is invalid:\n  a\n  b", "sweep_invalid")).toBe(
      "mm backtest: x.json: sweep file is invalid (code sweep_invalid):\n  a\n  b\n",
    );
  });

  it("names a usage error, a bad flag, a system error and a bug", () => {
    expect(errorCode(new UsageError("x"))).toBe("usage_error");
    expect(errorCode(Object.assign(new TypeError("x"), { code: "ERR_PARSE_ARGS_UNKNOWN_OPTION" }))).toBe(
      "usage_error",
    );
    expect(errorCode(Object.assign(new Error("x"), { code: "ENOENT" }))).toBe("ENOENT");
    expect(errorCode(new TypeError("x is undefined"))).toBe("unexpected_error");
    expect(errorCode("a string")).toBe("unexpected_error");
  });
});
