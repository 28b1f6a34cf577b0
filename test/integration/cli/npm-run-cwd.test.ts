import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callerCwd } from "../../../src/cli/main.js";
import { cleanEnv, ROOT, type Run, runChild } from "../../support/child-run.js";

/*
 * npm runs a script from the package root, so `npm run mm -- backtest … --out report.json` wrote
 * report.json into the repository, not the folder it was typed in (session 21's README walk).
 * mm now resolves relative paths from INIT_CWD (the caller's folder, set by npm) when this
 * package's `npm run mm` runs it; `npm start`, `node bin/mm.js` and `tsx src/cli/main.ts` keep
 * the process's working directory.
 */

const dir = mkdtempSync(join(tmpdir(), "mm-npm-cwd-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm --prefix ROOT run mm -- args…` from `cwd`, a folder outside the repository. */
function npmRunMm(args: string[], cwd: string): Promise<Run> {
  const env = cleanEnv();
  // As from a shell: not the npm_* of whatever npm started this test run.
  for (const k of Object.keys(env)) if (k.startsWith("npm_") || k === "INIT_CWD") delete env[k];
  return runChild("npm", ["--prefix", ROOT, "run", "--silent", "mm", "--", ...args], env, cwd);
}

describe("npm run mm resolves relative paths from the caller's folder", () => {
  it("writes a relative --out into the folder npm was run in, reading a relative --scenario there", async () => {
    const caller = join(dir, "caller");
    mkdirSync(join(caller, "cfg"), { recursive: true });
    symlinkSync(join(ROOT, "config/backtest/as-paper.json"), join(caller, "cfg", "as-paper.json"));
    const r = await npmRunMm(
      ["backtest", "--scenario", "cfg/as-paper.json", "--paths", "1", "--out", "summary-npm-cwd.json"],
      caller,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(caller, "summary-npm-cwd.json"), "utf8"))).toMatchObject({
      paths: 1,
    });
    expect(existsSync(join(ROOT, "summary-npm-cwd.json"))).toBe(false);
  }, 120_000);
});

describe("callerCwd", () => {
  const npm = {
    npm_lifecycle_event: "mm",
    npm_package_json: "/repo/package.json",
    INIT_CWD: "/home/me/data",
  };

  it("is INIT_CWD under this package's npm run mm", () => {
    expect(callerCwd(npm, "/repo", "/repo")).toBe("/home/me/data");
  });

  it("is the process's folder otherwise: npm start, node bin/mm.js, another package's mm script", () => {
    expect(callerCwd({ ...npm, npm_lifecycle_event: "start" }, "/repo", "/repo")).toBe("/repo");
    expect(callerCwd({}, "/somewhere", "/repo")).toBe("/somewhere");
    expect(callerCwd({ ...npm, npm_package_json: "/other/package.json" }, "/other", "/repo")).toBe("/other");
    expect(callerCwd({ ...npm, INIT_CWD: "relative" }, "/repo", "/repo")).toBe("/repo");
    const { INIT_CWD: _, ...noInit } = npm;
    expect(callerCwd(noInit, "/repo", "/repo")).toBe("/repo");
  });
});
