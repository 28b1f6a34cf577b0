import { describe, expect, it } from "vitest";
import { configCommand } from "../../../src/cli/config.js";
import { loadConfig } from "../../../src/config/load.js";
import { configError, fields, makeApiKey, tempDirPerTest } from "./support.js";

/*
 * review17 Q1: `mm config` prints the effective settings, and README says to check a config with
 * it; its output could not be pasted back into a config file. journal.enabled came out as a JSON
 * boolean, which a file refused ("must be a JSON string, got boolean"), and every empty setting
 * (exchange.userWallet, secrets.apiKeyFile…) as null, refused too. Files now take true/false for
 * the "true"/"false" settings, and `mm config` prints an empty setting as "", as a file holds it.
 * What is not a setting stays out of the paste: `files` (the layering) and the secrets' status.
 */

interface Shown {
  files?: unknown;
  secrets: Record<string, unknown>;
  [k: string]: unknown;
}

const tmp = tempDirPerTest();

async function mmConfig(args: string[], env: NodeJS.ProcessEnv): Promise<Shown> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), env, cwd: tmp.dir };
  const code = await configCommand.run(args, io);
  expect(err.join(""), "mm config stderr").toBe("");
  expect(code).toBe(0);
  return JSON.parse(out.join("")) as Shown;
}

/** The settings part of `mm config`'s output: what an operator would paste into a config file. */
function settingsOf(shown: Shown): Shown {
  const { files: _files, ...rest } = structuredClone(shown);
  const { apiKey: _apiKey, privateKey: _privateKey, ...secretFiles } = rest.secrets;
  return { ...rest, secrets: secretFiles };
}

async function roundTrip(env: NodeJS.ProcessEnv): Promise<void> {
  const first = await mmConfig([], env);
  const file = tmp.file("pasted.json", `${JSON.stringify(settingsOf(first), null, 2)}\n`);
  // Without the environment: the file alone must give the same effective settings.
  const second = await mmConfig(["--config", file], {});
  expect(settingsOf(second)).toEqual(settingsOf(first));
  expect(second.secrets).toEqual(first.secrets);
}

describe("mm config output pasted into a config file gives the same configuration (review17 Q1)", () => {
  it("the defaults", async () => {
    await roundTrip({});
  });

  it("settings set from the environment, booleans and empty settings included", async () => {
    const { key } = makeApiKey();
    const keyFile = tmp.file("api.key", `${key}\n`);
    await roundTrip({
      MM_JOURNAL_ENABLED: "false",
      MM_LOG_PRETTY: "false",
      MM_ENGINE_SESSION: "s17",
      MM_SIGNING_MAKER: "vault",
      MM_SIGNING_VAULT_ADDRESS: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      MM_API_KEY_FILE: keyFile,
    });
    await roundTrip({ MM_LOG_PRETTY: "true" });
  });

  it("mm config prints an empty setting as the empty string a file holds, not null", async () => {
    const shown = await mmConfig([], {});
    const exchange = shown.exchange as Record<string, unknown>;
    const engine = shown.engine as Record<string, unknown>;
    expect(exchange.userWallet).toBe("");
    expect(engine.session).toBe("");
    expect(shown.secrets.apiKeyFile).toBe("");
    expect(shown.secrets.privateKeyFile).toBe("");
  });

  it('a file may write a "true"/"false" setting as a JSON boolean; other settings still refuse one', () => {
    const file = tmp.file("b.json", { journal: { enabled: false }, log: { pretty: true } });
    const c = loadConfig({ files: [file], env: {} });
    expect(c.journal.enabled).toBe(false);
    expect(c.log.pretty).toBe(true);
    expect(loadConfig({ files: [tmp.file("c.json", { log: { pretty: false } })], env: {} }).log.pretty).toBe(
      false,
    );
    const bad = tmp.file("d.json", { log: { level: true }, exchange: { partnerKind: false } });
    const e = configError(() => loadConfig({ files: [bad], env: {} }));
    expect(fields(e)).toEqual(["log.level", "exchange.partnerKind"]);
    expect(e.issues[0]?.message).toMatch(/must be a JSON string, got boolean/);
  });
});
