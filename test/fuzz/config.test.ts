import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { ConfigError } from "../../src/config/errors.js";
import { jsonTypeOf } from "../../src/config/formats.js";
import { loadConfig } from "../../src/config/load.js";
import { packageRoot } from "../../src/config/paths.js";
import { type SettingSpec, settings } from "../../src/config/schema.js";
import {
  define,
  mutateAll,
  mutateTextAll,
  mutationsArb,
  nastyValue,
  nest,
  textMutationsArb,
  tryParse,
} from "./mutate.js";
import { fuzz, fuzzAsync, printTally, timeoutFor } from "./runs.js";

/*
 * Configuration loading (src/config/load.ts) on the repository's own config files mutated in
 * tree and text, on single settings given a value of the wrong JSON type, on random and deeply
 * nested MM_* environment values, and through `mm config` itself. Loading either returns a
 * config or throws ConfigError whose every issue names a setting (or the file); a wrong JSON
 * type is reported on exactly its setting; nothing else is ever thrown; the CLI turns every
 * ConfigError into exit code 2 with one `config error: <field>: …` line per field.
 */

const started = performance.now();
const WEIGHT = 0.05;
let dir: string;
let n = 0;
const SEEDS: Record<string, unknown>[] = [];
const PATHS = settings().map((s) => s.path);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-fuzz-config-"));
  const read = (f: string) =>
    JSON.parse(readFileSync(join(packageRoot(), "config", f), "utf8")) as Record<string, unknown>;
  const live = read("live.example.json");
  delete live.secrets; // its key files live on the operator's machine
  SEEDS.push(read("default.json"), read("paper.json"), live);
  for (const s of SEEDS) loadConfig({ files: [file(JSON.stringify(s))], env: {}, cwd: dir });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  printTally("config", started);
});

function file(text: string): string {
  const path = join(dir, `c${n++ % 64}.json`);
  writeFileSync(path, text);
  chmodSync(path, 0o600);
  return path;
}

/** A setting (or a path inside a JSON-valued one), a key the file holds, or the file itself. */
function namesSomething(field: string, files: readonly string[], keys: readonly string[]): boolean {
  const under = (p: string) => field === p || field.startsWith(`${p}.`) || p.startsWith(`${field}.`);
  return field === "config" || files.includes(field) || PATHS.some(under) || keys.some(under);
}

/** Loads; returns the ConfigError (or undefined for a config), failing on anything else. */
function load(
  files: string[],
  env: NodeJS.ProcessEnv,
  keys: readonly string[] = [],
): ConfigError | undefined {
  try {
    loadConfig({ files, env, cwd: dir });
    return undefined;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    expect(err.code).toBe("config_invalid");
    expect(err.issues.length).toBeGreaterThan(0);
    for (const i of err.issues) {
      // A key spelled "" in a file is named as written (the only way an issue's field is empty).
      expect(typeof i.field === "string" && (i.field !== "" || keys.includes("")), JSON.stringify(i)).toBe(
        true,
      );
      expect(typeof i.message === "string" && i.message !== "").toBe(true);
      expect(namesSomething(i.field, files, keys), i.field).toBe(true);
    }
    return err;
  }
}

const seedArb = fc.nat().map((i) => SEEDS[i % SEEDS.length] as Record<string, unknown>);

/**
 * A value of a JSON type other than the setting's (config files must match it), except a boolean
 * for a "true"/"false" setting, which a file may hold (files.ts: `mm config` prints one).
 */
function wrongType(format: SettingSpec["format"]) {
  const type = jsonTypeOf(format);
  const booleanOk = Array.isArray(format) && format.includes("true") && format.includes("false");
  return nastyValue.filter((v) => {
    const kind = Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
    if (kind === "boolean" && booleanOk) return false;
    if (type === "json" || type === "object") return kind !== "object";
    return kind !== type;
  });
}

describe("fuzz: configuration files and environment", () => {
  it(
    "mutated config files load or fail with ConfigError naming settings, never anything else",
    () => {
      fuzz(
        "config: mutated files",
        fc.property(seedArb, mutationsArb, fc.option(textMutationsArb, { freq: 3 }), (seed, ms, ts) => {
          const text = mutateTextAll(JSON.stringify(mutateAll(seed, ms)) ?? "", ts ?? []);
          const parsed = tryParse(Buffer.from(text).toString()); // as the file holds it: UTF-8
          const keys =
            parsed.ok && typeof parsed.value === "object" && parsed.value !== null
              ? Object.keys(parsed.value)
              : [];
          load([file(text)], {}, keys);
        }),
        WEIGHT,
      );
    },
    timeoutFor(WEIGHT),
  );

  it(
    "a setting given a value of the wrong JSON type is reported on that setting",
    () => {
      const leaf = fc.constantFrom(...settings().filter((s) => s.spec.envOnly !== true));
      fuzz(
        "config: wrong JSON type on one setting",
        fc.property(
          leaf.chain((s) => fc.tuple(fc.constant(s), wrongType(s.spec.format))),
          ([s, value]) => {
            const keys = s.path.split(".");
            const root: Record<string, unknown> = {};
            let node = root;
            for (const k of keys.slice(0, -1)) {
              const child: Record<string, unknown> = {};
              define(node, k, child);
              node = child;
            }
            define(node, keys[keys.length - 1] as string, value);
            const err = load([file(JSON.stringify(root))], {});
            expect(
              err?.issues.map((i) => i.field) ?? [],
              `${s.path} = ${JSON.stringify(value)?.slice(0, 60)}`,
            ).toContain(s.path);
          },
        ),
        WEIGHT,
      );
    },
    timeoutFor(WEIGHT),
  );

  it(
    "random, mutated and deeply nested MM_* values load or fail with ConfigError",
    () => {
      const specs = settings();
      const valueArb = fc.oneof(
        fc.string({ maxLength: 20 }),
        nastyValue.map((v) => (typeof v === "string" ? v : (JSON.stringify(v) ?? ""))),
        fc.constantFrom(
          "1",
          "0",
          "-1",
          "true",
          "[]",
          "{}",
          '["*"]',
          "a,b",
          "http://127.0.0.1:1",
          `0x${"ab".repeat(20)}`,
        ),
        fc
          .tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom<"array" | "object">("array", "object"))
          .map(([d, k]) =>
            k === "array" ? `${"[".repeat(d)}${"]".repeat(d)}` : `${'{"a":'.repeat(d)}1${"}".repeat(d)}`,
          ),
      );
      fuzz(
        "config: MM_* environment values",
        fc.property(
          fc.array(fc.tuple(fc.nat(specs.length - 1), valueArb), { minLength: 1, maxLength: 3 }),
          (vars) => {
            const env: NodeJS.ProcessEnv = {};
            for (const [i, v] of vars) env[(specs[i] as (typeof specs)[number]).spec.env] = v;
            load([], env);
          },
        ),
        WEIGHT,
      );
    },
    timeoutFor(WEIGHT),
  );

  it("deep nesting anywhere in a file is a ConfigError, not a stack overflow", () => {
    for (const depth of [64, 5_000, 100_000]) {
      for (const kind of ["array", "object"] as const) {
        const deep = JSON.stringify(nest(Math.min(depth, 3_000), kind)) as string;
        const text =
          depth <= 3_000
            ? deep
            : kind === "array"
              ? `${"[".repeat(depth)}${"]".repeat(depth)}`
              : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
        for (const body of [
          `{"x":${text}}`,
          `{"risk":${text}}`,
          `{"engine":{"strategy":{"name":"bands","params":{"bands":${text}}}}}`,
        ]) {
          expect(
            load([file(body)], {}, ["x", "risk", "engine"]),
            `${depth} ${kind} ${body.slice(0, 30)}`,
          ).toBeInstanceOf(ConfigError);
        }
        expect(load([], { MM_RISK: text }), `MM_RISK ${depth} ${kind}`).toBeInstanceOf(ConfigError);
        expect(load([], { MM_ENGINE_STRATEGY: text }), `MM_ENGINE_STRATEGY ${depth} ${kind}`).toBeInstanceOf(
          ConfigError,
        );
      }
    }
  });

  it(
    "`mm config` exits 2 with one `config error:` line per bad field, or 0",
    async () => {
      await fuzzAsync(
        "config: mm config exit codes",
        fc.asyncProperty(
          seedArb,
          mutationsArb,
          fc.option(textMutationsArb, { freq: 3 }),
          async (seed, ms, ts) => {
            const path = file(mutateTextAll(JSON.stringify(mutateAll(seed, ms)) ?? "", ts ?? []));
            let out = "";
            let err = "";
            const code = await main(["config", "--config", path], {
              stdout: (t) => {
                out += t;
              },
              stderr: (t) => {
                err += t;
              },
              env: {},
              cwd: dir,
            });
            expect([0, 2], err.slice(0, 300)).toContain(code);
            if (code === 0) {
              expect(err).toBe("");
              expect(() => JSON.parse(out)).not.toThrow();
              return;
            }
            // Exactly the ConfigError's lines, each prefixed: one per bad field.
            let expected = "";
            try {
              loadConfig({ files: [path], env: {}, cwd: dir });
            } catch (e) {
              if (!(e instanceof ConfigError)) throw e;
              expected = e
                .lines()
                .map((l) => `config error: ${l} (code config_invalid)\n`)
                .join("");
            }
            expect(err).toBe(expected);
            expect(err).not.toBe("");
          },
        ),
        WEIGHT / 5,
      );
    },
    timeoutFor(WEIGHT),
  );
});
