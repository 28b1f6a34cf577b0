import { describe, expect, it } from "vitest";
import { reportCommand } from "../../../src/cli/report.js";
import { twoRunJournal } from "../journal/report-support.js";
import { tempDirPerTest } from "./support.js";

/**
 * `mm report --config live.json` must not read nor check the key files live.json names (review 16):
 * a report reads the journal only; it needs no secret. An operator reading PnL as another user than
 * the daemon's (the key files are 0600 and the daemon's), or on a machine without the keys, gets
 * `config error: secrets.apiKeyFile: cannot read … (EACCES/ENOENT)`, exit 2, and no report — and
 * when it can read them, a reporting process holds the wallet key for nothing. `mm paper` already
 * ignores key-file settings for the same reason (README: "neither read nor checked").
 */
describe("mm report needs no secret", () => {
  const tmp = tempDirPerTest();

  it("mm report --config FILE reports the journal FILE names even when FILE's key files cannot be read", async () => {
    const journal = twoRunJournal();
    // As config/live.example.json: the key files live where the daemon reads them, not here.
    const config = tmp.file("live.json", {
      journal: { path: journal },
      secrets: { apiKeyFile: `${tmp.dir}/absent/api-key`, privateKeyFile: `${tmp.dir}/absent/private-key` },
    });
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => err.push(t),
      env: {},
      cwd: tmp.dir,
    };
    const code = await reportCommand.run(["--config", config, "--json"], io);
    expect(err.join("")).not.toMatch(/secrets\./);
    expect(code).toBe(0);
    expect(JSON.parse(out.join("")).total).toMatchObject({ fills: 5 });
  });

  it("a malformed key in the environment does not stop a report either: it is never parsed", async () => {
    const config = tmp.file("live.json", { journal: { path: twoRunJournal() } });
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => err.push(t),
      env: { MM_PRIVATE_KEY: "0x1234", MM_API_KEY: "not-a-key" },
      cwd: tmp.dir,
    };
    expect(await reportCommand.run(["--config", config, "--json"], io)).toBe(0);
    expect(err.join("")).toBe("");
    expect(JSON.parse(out.join("")).total).toMatchObject({ fills: 5 });
  });
});
