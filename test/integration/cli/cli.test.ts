import { randomBytes } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cleanEnv, ROOT, type Run, runNode } from "../../support/child-run.js";

const PRIVATE_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

const run = runNode;

/** `mm …` through tsx, as `npm run mm` does, with cwd = repo root. */
const mm = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
  run(["--import", "tsx", "src/cli/main.ts", ...args], cleanEnv(env));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-cli-test-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string, mode = 0o600): string {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  chmodSync(path, mode);
  return path;
}

describe("mm (child process)", () => {
  it("--help lists the subcommands and exits 0", async () => {
    const r = await mm(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: mm <command> \[options\]/);
    expect(r.stdout).toMatch(/^ {2}config +Validate the configuration and print the effective settings/m);
    expect(r.stderr).toBe("");
  });

  it("an unknown subcommand is a usage error: exit 2 with the usage on stderr", async () => {
    const r = await mm(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mm: unknown command "frobnicate"/);
    expect(r.stderr).toContain("Commands:");
    expect(r.stdout).toBe("");
  });

  it("no subcommand prints the usage and exits 2; an unknown option of config exits 2", async () => {
    expect((await mm([])).code).toBe(2);
    const r = await mm(["config", "--bogus"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("mm config: Unknown option '--bogus'");
    expect(r.stderr).toContain("Run 'mm config --help' for usage.");
  });

  it("config --help shows usage and every env var", async () => {
    const r = await mm(["config", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: mm config \[--config FILE \.\.\.\]/);
    for (const env of ["MM_EXCHANGE_BASE_URL", "MM_API_KEY", "MM_PRIVATE_KEY_FILE", "MM_LOG_LEVEL"]) {
      expect(r.stdout).toContain(env);
    }
    expect((await mm(["help", "config"])).stdout).toBe(r.stdout);
  });

  it("config with bad settings exits 2 with exactly one stderr line per bad field", async () => {
    const a = file(
      "a.json",
      JSON.stringify({
        exchange: { baseUrl: "ftp://x.invalid", partnerKind: "multi_wallet" },
        retry: { maxAttempts: 99 },
        unknownGroup: { x: 1 },
      }),
    );
    const b = file("b.json", JSON.stringify({ log: { level: "loud" } }));
    const r = await mm(["config", "--config", a, "-c", b], { MM_SIGNING_CHAIN_ID: "zero" });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toEqual([
      `config error: unknownGroup: unknown setting (in ${a}) (code config_invalid)`,
      `config error: exchange.baseUrl: must start with http:// or https://, got "ftp://x.invalid" (in ${a}) (code config_invalid)`,
      `config error: retry.maxAttempts: must be ≤ 10, got 99 (in ${a}) (code config_invalid)`,
      'config error: signing.chainId: must be an integer, got "zero" (from env MM_SIGNING_CHAIN_ID) (code config_invalid)',
      `config error: log.level: must be one of fatal, error, warn, info, debug, trace, silent, got "loud" (in ${b}) (code config_invalid)`,
      "config error: exchange.userWallet: required when exchange.partnerKind is multi_wallet (it is sent as X-User-Wallet) (code config_invalid)",
    ]);
  });

  it("config with valid layered settings exits 0 and prints the effective JSON with secrets redacted", async () => {
    const keyId = randomBytes(8).toString("hex");
    const secret = randomBytes(32).toString("base64url");
    const apiKey = `mm_live_${keyId}_${secret}`;
    const pk = file("keys/pk", `${PRIVATE_KEY}\n`);
    const a = file("a.json", JSON.stringify({ exchange: { baseUrl: "https://a.example.invalid" } }));
    const b = file("b.json", JSON.stringify({ log: { level: "warn" }, secrets: { privateKeyFile: pk } }));
    const r = await mm(["config", "--config", a, "--config", b], {
      MM_API_KEY: apiKey,
      MM_LOG_PRETTY: "false",
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
    expect(out.files).toEqual([join(ROOT, "config", "default.json"), a, b]);
    expect(out.exchange?.baseUrl).toBe("https://a.example.invalid");
    expect(out.log).toEqual({ level: "warn", pretty: false });
    expect(out.secrets).toEqual({
      apiKeyFile: "",
      privateKeyFile: pk,
      apiKey: { present: true, value: "[REDACTED]", source: "env MM_API_KEY", svc: "mm", env: "live", keyId },
      privateKey: { present: true, value: "[REDACTED]", source: `file ${pk}`, address: ADDRESS },
    });
    for (const s of [apiKey, secret, PRIVATE_KEY, PRIVATE_KEY.slice(2)]) {
      expect(r.stdout).not.toContain(s);
    }
  });

  it("config reports absent secrets as not present", async () => {
    const r = await mm(["config"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { secrets: Record<string, unknown> };
    expect(out.secrets.apiKey).toEqual({ present: false, value: null });
    expect(out.secrets.privateKey).toEqual({ present: false, value: null });
  });

  it("config never prints a secret on failure, even a malformed one", async () => {
    const secret = randomBytes(32).toString("base64url");
    const badKey = `mm_prod_0123456789abcdef_${secret}`;
    const pk = file("pk", PRIVATE_KEY, 0o644);
    const r = await mm(["config"], {
      MM_API_KEY: badKey,
      MM_PRIVATE_KEY_FILE: pk,
      MM_EXCHANGE_USER_WALLET: PRIVATE_KEY,
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      "config error: exchange.userWallet: looks like a private key, which belongs only in its secret setting (from env MM_EXCHANGE_USER_WALLET) (code config_invalid)",
      'config error: secrets.apiKey: must have the shape <svc>_<env>_<keyId>_<secret>: <env> must be "live" or "test" (from env MM_API_KEY) (code config_invalid)',
      `config error: secrets.privateKeyFile: ${pk} is accessible by group or others (mode 0644); run chmod 600 on it (code config_invalid)`,
    ]);
    for (const s of [badKey, secret, PRIVATE_KEY.slice(2)]) expect(r.stderr + r.stdout).not.toContain(s);
  });

  it("config refuses a secret nested in a JSON-valued MM_* variable, printing none of it", async () => {
    // As deep as a config file is screened: a key inside MM_RISK used to be accepted and printed,
    // or echoed 30 characters deep by the decimal check of risk.order.maxSize.
    const r = await mm(["config"], {
      MM_RISK: JSON.stringify({ errorRate: { ignoreCodes: [PRIVATE_KEY] }, order: { maxSize: PRIVATE_KEY } }),
      MM_ENGINE_STRATEGY_BY_MARKET: JSON.stringify({
        m: { name: "bands", params: { note: PRIVATE_KEY.slice(2) } },
      }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      "config error: engine.strategyByMarket: looks like a private key, which belongs only in its secret setting (from env MM_ENGINE_STRATEGY_BY_MARKET) (code config_invalid)",
      "config error: risk: looks like a private key, which belongs only in its secret setting (from env MM_RISK) (code config_invalid)",
    ]);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toContain(PRIVATE_KEY.slice(2, 22));
  });

  it("config --docs prints the Markdown settings table", async () => {
    const r = await mm(["config", "--docs"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("| setting | env | default | doc |");
    expect(r.stdout).toContain('| `markets.defaultTickSize` | `MM_MARKETS_DEFAULT_TICK_SIZE` | `"0.01"` |');
  });
});

describe("bin/mm.js", () => {
  it("prints a one-line hint and exits 1 when dist/ is missing", async () => {
    const bin = join(dir, "bin", "mm.js");
    mkdirSync(dirname(bin));
    copyFileSync(join(ROOT, "bin", "mm.js"), bin);
    const r = await run([bin, "--help"], cleanEnv());
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("mm: the compiled CLI (dist/) is missing; run `npm run build` first\n");
  });

  it("hands its arguments to the compiled CLI's runCli", async () => {
    // A stand-in dist/ module proves the launcher's contract (path, export, argv) without a full build.
    const bin = join(dir, "bin", "mm.js");
    mkdirSync(dirname(bin));
    copyFileSync(join(ROOT, "bin", "mm.js"), bin);
    file(
      "dist/src/cli/main.js",
      "export async function runCli(argv) { process.stdout.write(JSON.stringify(argv)); process.exitCode = 2; }\n",
    );
    // Signals are held before the CLI loads (a docker stop while mm loads is not lost as PID 1).
    file(
      "dist/src/app/early-signals.js",
      'export function holdEarlySignals(argv) { process.stdout.write("held " + argv[0] + ";"); }\n',
    );
    const r = await run([bin, "config", "--config", "x.json"], cleanEnv());
    expect(r.stdout).toBe('held config;["config","--config","x.json"]');
    expect(r.code).toBe(2);
  });
});
