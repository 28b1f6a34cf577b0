import { Writable } from "node:stream";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { describeConfig } from "../../../src/config/describe.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { loggerOptions } from "../../../src/config/logger-options.js";
import { requireApiKey, requirePrivateKey, secretValues } from "../../../src/config/secrets.js";
import { createLogger } from "../../../src/observability/logger.js";
import {
  configError,
  fields,
  makeApiKey,
  PRIVATE_KEY,
  PRIVATE_KEY_ADDRESS,
  tempDirPerTest,
} from "./support.js";

const tmp = tempDirPerTest();

const HEX = PRIVATE_KEY.slice(2);

/** Asserts none of the secret strings (nor the private key without 0x) appears in `text`. */
function expectNoSecret(text: string, ...secrets: string[]): void {
  for (const s of secrets) {
    expect(text).not.toContain(s);
    if (s.startsWith("0x")) expect(text.toLowerCase()).not.toContain(s.slice(2).toLowerCase());
  }
}

describe("secrets from the environment", () => {
  it("loads the API key and private key from MM_API_KEY / MM_PRIVATE_KEY", () => {
    const { key, keyId, secret } = makeApiKey("test");
    const c = loadConfig({ env: { MM_API_KEY: key, MM_PRIVATE_KEY: PRIVATE_KEY } });
    expect(c.secrets.apiKey?.value.reveal()).toBe(key);
    expect(c.secrets.apiKey?.secret.reveal()).toBe(secret);
    expect(c.secrets.apiKey).toMatchObject({ svc: "mm", env: "test", keyId, source: "env MM_API_KEY" });
    expect(c.secrets.privateKey?.value.reveal()).toBe(PRIVATE_KEY);
    expect(c.secrets.privateKey?.address).toBe(PRIVATE_KEY_ADDRESS);
    expect(secretValues(c)).toEqual([key, secret, PRIVATE_KEY]);
    expect(requireApiKey(c).keyId).toBe(keyId);
    expect(requirePrivateKey(c).address).toBe(PRIVATE_KEY_ADDRESS);
  });

  it("accepts a private key without 0x, in upper case, with surrounding whitespace", () => {
    const c = loadConfig({ env: { MM_PRIVATE_KEY: `  ${HEX.toUpperCase()}\n` } });
    expect(c.secrets.privateKey?.value.reveal()).toBe(PRIVATE_KEY);
  });

  it("refuses a malformed private key and a zero scalar without showing them", () => {
    for (const bad of [`0x${HEX.slice(1)}`, `0x${HEX}00`, `0x${"z".repeat(64)}`, `0x${"0".repeat(64)}`]) {
      const e = configError(() => loadConfig({ env: { MM_PRIVATE_KEY: bad } }));
      expect(fields(e)).toEqual(["secrets.privateKey"]);
      expect(e.message).toMatch(/\(from env MM_PRIVATE_KEY\)$/);
      expectNoSecret(e.message, bad);
    }
  });

  it("refuses a malformed API key naming the setting and the env var, never the value", () => {
    const { key, secret } = makeApiKey();
    const bad = key.replace("_live_", "_prod_");
    const e = configError(() => loadConfig({ env: { MM_API_KEY: bad } }));
    expect(e.lines()).toEqual([
      'secrets.apiKey: must have the shape <svc>_<env>_<keyId>_<secret>: <env> must be "live" or "test" (from env MM_API_KEY)',
    ]);
    expectNoSecret(JSON.stringify(e), bad, secret);
  });

  it("leaves secrets absent when not provided, and the require helpers name how to set them", () => {
    const c = loadConfig({ env: {} });
    expect(secretValues(c)).toEqual([]);
    const a = configError(() => requireApiKey(c));
    expect(a.lines()).toEqual([
      "secrets.apiKey: required: set MM_API_KEY or secrets.apiKeyFile (MM_API_KEY_FILE)",
    ]);
    const p = configError(() => requirePrivateKey(c));
    expect(fields(p)).toEqual(["secrets.privateKey"]);
    expect(p.message).toContain("MM_PRIVATE_KEY");
  });
});

describe("secrets from files", () => {
  it("reads both keys from 0600 files, trimming the trailing newline", () => {
    const { key, keyId } = makeApiKey();
    const apiKeyFile = tmp.file("api-key", `${key}\n`);
    const pkFile = tmp.file("pk", `${PRIVATE_KEY}\r\n`, 0o400);
    const conf = tmp.file("c.json", { secrets: { apiKeyFile, privateKeyFile: pkFile } });
    const c = loadConfig({ files: [conf], env: {} });
    expect(c.secrets.apiKey?.value.reveal()).toBe(key);
    expect(c.secrets.apiKey?.keyId).toBe(keyId);
    expect(c.secrets.apiKey?.source).toBe(`file ${apiKeyFile}`);
    expect(c.secrets.privateKey?.address).toBe(PRIVATE_KEY_ADDRESS);
    expect(c.secrets.apiKeyFile).toBe(apiKeyFile);
  });

  it("resolves a relative key file path against cwd (env MM_PRIVATE_KEY_FILE)", () => {
    tmp.file("pk", PRIVATE_KEY);
    const c = loadConfig({ env: { MM_PRIVATE_KEY_FILE: "pk" }, cwd: tmp.dir });
    expect(c.secrets.privateKey?.address).toBe(PRIVATE_KEY_ADDRESS);
  });

  it.each(["0644", "0640", "0604", "0660", "0620", "0602", "0610"])(
    "refuses a key file with mode %s",
    (octal) => {
      const mode = Number.parseInt(octal, 8);
      const { key } = makeApiKey();
      const path = tmp.file("api-key", key, mode);
      const e = configError(() => loadConfig({ env: { MM_API_KEY_FILE: path } }));
      expect(e.lines()).toEqual([
        `secrets.apiKeyFile: ${path} is accessible by group or others (mode ${octal}); run chmod 600 on it`,
      ]);
      expectNoSecret(e.message, key);
    },
  );

  it("refuses a missing, empty or non-regular key file", () => {
    const empty = tmp.file("empty", "  \n");
    const e1 = configError(() => loadConfig({ env: { MM_PRIVATE_KEY_FILE: empty } }));
    expect(e1.lines()).toEqual([`secrets.privateKeyFile: ${empty} is empty`]);
    const e2 = configError(() => loadConfig({ env: { MM_PRIVATE_KEY_FILE: `${tmp.dir}/none` } }));
    expect(e2.lines()).toEqual([`secrets.privateKeyFile: cannot read ${tmp.dir}/none (ENOENT)`]);
    const e3 = configError(() => loadConfig({ env: { MM_API_KEY_FILE: tmp.dir } }));
    expect(e3.lines()).toEqual([`secrets.apiKeyFile: ${tmp.dir} is not a regular file`]);
  });

  it("refuses a secret given both by env and by file", () => {
    const { key } = makeApiKey();
    const path = tmp.file("api-key", key);
    const e = configError(() => loadConfig({ env: { MM_API_KEY: key, MM_API_KEY_FILE: path } }));
    expect(e.lines()).toEqual(["secrets.apiKey: set by both MM_API_KEY and secrets.apiKeyFile; use one"]);
  });

  it("checks a multi_wallet user wallet against the private key's address", () => {
    const other = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const e = configError(() =>
      loadConfig({
        env: {
          MM_EXCHANGE_PARTNER_KIND: "multi_wallet",
          MM_EXCHANGE_USER_WALLET: other,
          MM_PRIVATE_KEY: PRIVATE_KEY,
        },
      }),
    );
    expect(e.lines()).toEqual([
      `exchange.userWallet: must be the address of the private key (${PRIVATE_KEY_ADDRESS}): the acting wallet signs its own orders`,
    ]);
    const ok = loadConfig({
      env: {
        MM_EXCHANGE_PARTNER_KIND: "multi_wallet",
        MM_EXCHANGE_USER_WALLET: PRIVATE_KEY_ADDRESS.toLowerCase(),
        MM_PRIVATE_KEY: PRIVATE_KEY,
      },
    });
    expect(ok.exchange.userWallet).toBe(PRIVATE_KEY_ADDRESS);
  });
});

describe("secrets never in config files", () => {
  it.each([
    ["top-level apiKey", { apiKey: "anything" }, "apiKey"],
    ["secrets.apiKey", { secrets: { apiKey: "anything" } }, "secrets.apiKey"],
    ["secrets.privateKey", { secrets: { privateKey: "anything" } }, "secrets.privateKey"],
    ["nested private_key", { exchange: { private_key: "x" } }, "exchange.private_key"],
    ["a secret under an unknown group", { wallet: { secret: "x" } }, "wallet.secret"],
    ["a password", { exchange: { password: "x" } }, "exchange.password"],
  ])("refuses %s by name", (_name, content, field) => {
    const a = tmp.file("a.json", content);
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(fields(e)).toEqual([field]);
    expect(e.issues[0]?.message).toContain(`secret values are never read from config files (in ${a})`);
    expect(e.issues[0]?.message).toContain("MM_API_KEY");
  });

  it("reports a secret beside other mistakes in the same group, and lets market slugs be any word", () => {
    const a = tmp.file("a.json", {
      exchange: { private_key: "x", baseUrl: "ftp://x.invalid", requestTimeoutMs: 5000 },
      markets: { tickSizes: { "who-keeps-the-secret": "0.001" } },
    });
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(fields(e)).toEqual(["exchange.private_key", "exchange.baseUrl"]);
    const b = tmp.file("b.json", { markets: { tickSizes: { "who-keeps-the-secret": "0.001" } } });
    expect(loadConfig({ files: [b], env: {} }).markets.tickSizes).toEqual({
      "who-keeps-the-secret": "0.001",
    });
  });

  it("refuses secret-shaped values in any setting, known or not, without echoing them", () => {
    const { key, secret } = makeApiKey();
    const a = tmp.file("a.json", {
      exchange: { userWallet: PRIVATE_KEY, baseUrl: `https://x.invalid/${key}` },
      signing: { domainName: secret },
      notes: { anything: [HEX] },
    });
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(fields(e)).toEqual([
      "exchange.userWallet",
      "exchange.baseUrl",
      "signing.domainName",
      "notes.anything.0",
    ]);
    expect(e.issues[0]?.message).toMatch(
      /^looks like a private key: secrets are never read from config files/,
    );
    expect(e.issues[1]?.message).toMatch(/^looks like an API key: /);
    expectNoSecret(JSON.stringify(e), key, secret, PRIVATE_KEY);
  });

  it("refuses a secret pasted into another setting's env var without echoing it", () => {
    const { key } = makeApiKey();
    const e = configError(() =>
      loadConfig({ env: { MM_EXCHANGE_USER_WALLET: PRIVATE_KEY, MM_SIGNING_DOMAIN_NAME: key } }),
    );
    expect(e.lines()).toEqual([
      "exchange.userWallet: looks like a private key, which belongs only in its secret setting (from env MM_EXCHANGE_USER_WALLET)",
      "signing.domainName: looks like an API key, which belongs only in its secret setting (from env MM_SIGNING_DOMAIN_NAME)",
    ]);
    expectNoSecret(e.message, key, PRIVATE_KEY);
  });
});

describe("no secret leaks", () => {
  it("keeps secrets out of every error when valid secrets load beside bad settings", () => {
    const { key, secret } = makeApiKey();
    const e = configError(() =>
      loadConfig({
        env: {
          MM_API_KEY: key,
          MM_PRIVATE_KEY: PRIVATE_KEY,
          MM_LOG_LEVEL: "loud",
          MM_EXCHANGE_PARTNER_KIND: "multi_wallet",
          MM_EXCHANGE_USER_WALLET: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        },
      }),
    );
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.issues.length).toBe(2);
    for (const text of [e.message, JSON.stringify(e), inspect(e, { depth: 10 }), String(e.stack)]) {
      expectNoSecret(text, key, secret, PRIVATE_KEY);
    }
  });

  it("keeps secrets out of the loaded config's JSON, inspection and display form", () => {
    const { key, secret, keyId } = makeApiKey();
    const c = loadConfig({ env: { MM_API_KEY: key, MM_PRIVATE_KEY: PRIVATE_KEY } });
    const shown = describeConfig(c);
    for (const text of [JSON.stringify(c), inspect(c, { depth: 10 }), JSON.stringify(shown)]) {
      expectNoSecret(text, key, secret, PRIVATE_KEY);
    }
    expect(shown.secrets).toEqual({
      apiKeyFile: "",
      privateKeyFile: "",
      apiKey: { present: true, value: "[REDACTED]", source: "env MM_API_KEY", svc: "mm", env: "live", keyId },
      privateKey: {
        present: true,
        value: "[REDACTED]",
        source: "env MM_PRIVATE_KEY",
        address: PRIVATE_KEY_ADDRESS,
      },
    });
    expect(loggerOptions(c)).toEqual({ level: "info", secrets: [key, secret, PRIVATE_KEY] });
  });

  it("wires into the logger so a secret logged anywhere comes out scrubbed", () => {
    const { key, secret } = makeApiKey();
    const c = loadConfig({ env: { MM_API_KEY: key, MM_PRIVATE_KEY: PRIVATE_KEY, MM_LOG_LEVEL: "debug" } });
    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, cb) {
        chunks.push(String(chunk));
        cb();
      },
    });
    const log = createLogger({ ...loggerOptions(c), pretty: false, destination });
    log.debug(
      { url: `https://x.invalid/?k=${key}`, note: `secret ${secret}`, pk: HEX },
      `signing with ${PRIVATE_KEY}`,
    );
    const out = chunks.join("");
    expect(out).toContain("[REDACTED]");
    expectNoSecret(out, key, secret, PRIVATE_KEY);
  });
});
