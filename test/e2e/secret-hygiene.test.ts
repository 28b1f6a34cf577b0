import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { settings } from "../../src/config/schema.js";
import { API_KEY, PRIVATE_KEY } from "../integration/daemon/support.js";
import { type MmChild, reap, spawnMm } from "./support.js";

let mm: MmChild | undefined;
let dir: string | undefined;
afterEach(async () => {
  await reap(mm);
  mm = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Every spelling of the two secrets that could end up in an output. */
function secretForms(): string[] {
  const hex = PRIVATE_KEY.replace(/^0x/, "");
  const secretPart = API_KEY.split("_").at(-1) ?? "";
  expect(secretPart.length).toBeGreaterThanOrEqual(32);
  return [
    API_KEY,
    secretPart,
    hex.toLowerCase(),
    hex.toUpperCase(),
    Buffer.from(hex, "hex").toString("base64"),
  ];
}

function leaked(where: string, text: string): string[] {
  return secretForms()
    .filter((s) => text.includes(s))
    .map((s) => `${where} contains a secret (${s.length} chars)`);
}

describe("secret hygiene: a full paper session at debug level", () => {
  it("never writes the API key's secret or the private key to logs, metrics or the journal", async () => {
    dir = mkdtempSync(join(tmpdir(), "mm-secrets-"));
    const journal = join(dir, "journal.sqlite");
    mm = spawnMm(["paper", "--port", "0", "--journal", journal], {
      MM_LOG_PRETTY: "false",
      MM_LOG_LEVEL: "debug",
      MM_METRICS_PORT: "0",
      MM_JOURNAL_SNAPSHOT_INTERVAL_MS: "1000",
    });
    const mock = await mm.waitFor(
      (r) => String(r.msg).startsWith("paper: mock exchange at "),
      20_000,
      "the mock's address",
    );
    expect(mock.http).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const at = await mm.waitFor((r) => typeof r.metrics === "string", 20_000, "the metrics address");
    const metricsUrl = String(at.metrics);
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    await mm.waitFor((r) => String(r.msg).startsWith("fill: "), 20_000, "a fill");
    const metrics = await (await fetch(metricsUrl)).text();
    expect(metrics).toContain("mm_");
    mm.child.kill("SIGTERM");
    expect(await mm.exited).toBe(0);

    // The session really logged at debug level, so the scan covers the chattiest output.
    const debugLines = mm.records.filter((r) => r.level === 20).length;
    expect(debugLines).toBeGreaterThan(10);
    const logs = mm.records.map((r) => JSON.stringify(r)).join("\n") + mm.stderr();

    // The journal holds the session (intents, fills) and, byte for byte, none of the secrets.
    const db = new Database(journal, { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    let rows = 0;
    let dump = "";
    for (const { name } of tables) {
      const all = db.prepare(`SELECT * FROM "${name}"`).all();
      rows += all.length;
      dump += JSON.stringify(all, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    }
    db.close();
    expect(rows).toBeGreaterThan(0);
    const files = [journal, `${journal}-wal`, `${journal}-shm`].filter((f) => existsSync(f));
    const raw = files.map((f) => readFileSync(f).toString("latin1")).join("");

    expect([
      ...leaked("logs", logs),
      ...leaked("/metrics", metrics),
      ...leaked("journal rows", dump),
      ...leaked("journal files", raw),
    ]).toEqual([]);
  }, 60_000);
});

describe("secret hygiene: safe defaults", () => {
  it("defaults every address to 127.0.0.1 (the paper session above shows both servers bound there)", () => {
    const spec = new Map(settings().map(({ path, spec }) => [path, spec]));
    expect(spec.get("metrics.host")?.default).toBe("127.0.0.1");
    expect(spec.get("exchange.baseUrl")?.default).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(spec.get("exchange.wsUrl")?.default).toMatch(/^ws:\/\/127\.0\.0\.1:/);
  });

  it("runs the Docker image as a non-root user", () => {
    const dockerfile = readFileSync(join(import.meta.dirname, "../../Dockerfile"), "utf8");
    const finalStage = dockerfile.split(/^FROM /m).at(-1) ?? "";
    const users = [...finalStage.matchAll(/^USER\s+(\S+)/gm)].map((m) => m[1]);
    expect(users.length).toBeGreaterThan(0);
    expect(["root", "0", "0:0"]).not.toContain(users.at(-1));
  });
});
