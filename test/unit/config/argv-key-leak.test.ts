import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { makeApiKey, PRIVATE_KEY } from "./support.js";

/*
 * review s24-walksec: a key typed on the command line where a path or nothing belongs
 * (`mm run $MM_API_KEY`, `mm config --config "$(cat key)"`) came back whole on stderr, which goes
 * to journald and CI logs: `Unexpected argument 'mm_live_…'`, `cannot read config file <cwd>/0xac09…`.
 * The same slip in MM_API_KEY_FILE is scrubbed (keyfile-env-leak.test.ts).
 */
describe("a key typed on the command line never comes back on stderr", () => {
  const run = async (argv: string[]): Promise<{ code: number; err: string }> => {
    let err = "";
    const code = await main(argv, {
      stdout: () => undefined,
      stderr: (t) => {
        err += t;
      },
      env: {},
      cwd: "/tmp",
    });
    return { code, err };
  };

  it("an API key as a stray argument: the usage error, neither the key nor its secret printed", async () => {
    const { key, secret } = makeApiKey();
    const { code, err } = await run(["run", key]);
    expect(code).toBe(2);
    expect(err).toContain("Unexpected argument");
    expect(err).not.toContain(secret);
  });

  it("a private key as --config's value, in either spelling: the config error, the key not printed", async () => {
    for (const argv of [
      ["config", "--config", PRIVATE_KEY],
      ["config", `--config=${PRIVATE_KEY}`],
      ["config", "-c", PRIVATE_KEY.slice(2).toUpperCase()],
    ]) {
      const { code, err } = await run(argv);
      expect(code).toBe(2);
      expect(err).toContain("cannot read config file");
      expect(err.toLowerCase()).not.toContain(PRIVATE_KEY.slice(2, 30).toLowerCase());
    }
  });

  // review s24-rsig: a path naming a market by its condition id (a private key's shape) was
  // registered whole, and its own error read `config error: [REDACTED]: cannot read config file`.
  it("a path holding a condition id, in a directory or as a file's name, stays readable", async () => {
    const conditionId = "0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d72f8f1";
    for (const path of [`/captures/${conditionId}/live.json`, `${conditionId}.json`]) {
      const { err } = await run(["config", "--config", path]);
      expect(err).toContain("cannot read config file");
      expect(err).toContain(path);
    }
  });

  it("an ordinary argument stays readable", async () => {
    const { err } = await run(["run", "live.json"]);
    expect(err).toContain("Unexpected argument 'live.json'");
  });
});
