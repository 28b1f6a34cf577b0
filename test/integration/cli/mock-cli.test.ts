import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { packageRoot } from "../../../src/config/paths.js";

const root = packageRoot();
const dir = mkdtempSync(join(tmpdir(), "mm-mock-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mm mock (child process)", () => {
  it("prints the URLs, keys and wallets, serves on 127.0.0.1, and exits 0 on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "src/cli/main.ts", "mock", "--port", "0", "--log-level", "silent"],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? "" },
      },
    );
    let out = "";
    child.stdout.setEncoding("utf8");
    const url = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no banner: ${out}`)), 15_000);
      child.stdout.on("data", (chunk: string) => {
        out += chunk;
        const m = /HTTP\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m?.[1] !== undefined && out.includes("Wallets")) {
          clearTimeout(t);
          resolve(m[1]);
        }
      });
    });
    expect(out).toMatch(/WS\s+ws:\/\/127\.0\.0\.1:\d+\/ws\/market/);
    expect(out).toMatch(/mm_test_[0-9a-f]{16}_\S{43}\s+partner=partner-mm/);
    expect(out).toMatch(/0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\s+kyc=1/);
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
  });

  it("a bad --log-level is a usage error (exit 2) naming the option, before anything listens", async () => {
    let stderr = "";
    const code = await main(["mock", "--log-level", "loud", "--port", "0"], {
      stdout: () => undefined,
      stderr: (t) => {
        stderr += t;
      },
      env: {},
      cwd: root,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(
      'mm mock: --log-level: must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
  });

  it("exits 2 with one line per problem for an invalid scenario", () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ seed: "x", pepper: "short" }));
    const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "mock", "--scenario", bad], {
      cwd: root,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "" },
    });
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line).toMatch(/^scenario error: /);
    expect(r.stderr).toContain("seed: must be an integer");
  });
});
