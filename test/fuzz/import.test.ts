import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CsvParser } from "../../src/backtest/import/csv.js";
import { ImportError } from "../../src/backtest/import/errors.js";
import { importPolymarketPriceChanges } from "../../src/backtest/import/polymarket-price-changes.js";
import { parseTimestampMicros } from "../../src/backtest/import/timestamp.js";
import { parseEventFrame } from "../../src/gateway/schema/events.js";
import { RecordedFormatError } from "../../src/recorded/errors.js";
import { type RecordedFrame, readRecorded, recordLine } from "../../src/recorded/format.js";
import { MAX_RECV_TS_MS, MIN_RECV_TS_MS } from "../../src/recorded/read.js";
import { MARKET_FRAMES } from "./frames/corpus.js";
import { mutateAll, mutateTextAll, mutationsArb, textMutationsArb, tryParse } from "./mutate.js";
import { fuzz, fuzzAsync, printTally, timeoutFor } from "./runs.js";

/*
 * The recorded-data readers of the backtest (src/backtest/import, src/recorded): the CSV record
 * parser (round trip of arbitrary fields, garbage lines), timestamps with offsets (against a
 * BigInt calendar reference), the recorded JSONL.gz reader (mutated and garbage lines, with and
 * without a bad-line callback) and the whole Polymarket price_change importer on mutated CSV
 * files. Every refusal is an ImportError with one of the documented codes (a RecordedFormatError
 * `bad_record` for the recorded reader) and the line it is about; what is accepted is exactly
 * what was written, and an import either writes a file whose frames all pass the live gateway's
 * validator or writes nothing.
 */

const started = performance.now();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-fuzz-import-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  printTally("import", started);
});

const IMPORT_CODES = new Set([
  "csv_unterminated_quote",
  "csv_bad_quote",
  "csv_bad_header",
  "csv_field_count",
  "bad_timestamp",
  "bad_row",
  "bad_changes",
  "output_exists",
]);

function expectImportError(err: unknown): ImportError {
  if (!(err instanceof ImportError)) throw err;
  expect(IMPORT_CODES.has(err.code), err.code).toBe(true);
  expect(typeof err.details.file).toBe("string");
  return err;
}

const quote = (f: string) => `"${f.replaceAll('"', '""')}"`;
/** RFC 4180 text of records: fields quoted when they need it (and empty single fields, else the line is blank). */
const toCsv = (records: string[][]) =>
  records
    .map((r) =>
      r
        .map((f) => (/[",\n]/.test(f) || (r.length === 1 && f === "") || f.startsWith('"') ? quote(f) : f))
        .join(","),
    )
    .join("\n");

function feedAll(text: string): { fields: string[]; line: number }[] {
  const p = new CsvParser("fuzz.csv");
  const out: { fields: string[]; line: number }[] = [];
  for (const line of text.split("\n")) {
    const r = p.feed(line);
    if (r !== undefined) out.push(r);
  }
  p.end();
  return out;
}

describe("fuzz: recorded-data readers", () => {
  it(
    "CSV: any records written as RFC 4180 read back identically, on the lines they start",
    () => {
      const field = fc.string({
        unit: fc.constantFrom("a", "b", " ", ",", '"', "\n", "é", "0", "\t"),
        maxLength: 8,
      });
      fuzz(
        "import: CSV round trip",
        fc.property(
          fc.array(fc.array(field, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 }),
          (records) => {
            const text = toCsv(records);
            const read = feedAll(text);
            expect(read.map((r) => r.fields)).toEqual(records);
            let line = 1;
            records.forEach((r, i) => {
              expect(read[i]?.line).toBe(line);
              line += (toCsv([r]).match(/\n/g)?.length ?? 0) + 1;
            });
          },
        ),
      );
    },
    timeoutFor(),
  );

  it(
    "CSV: garbage lines give records or ImportError csv_bad_quote / csv_unterminated_quote",
    () => {
      fuzz(
        "import: CSV garbage",
        fc.property(
          fc.string({ unit: fc.constantFrom('"', ",", "a", "\n", " ", '""'), maxLength: 30 }),
          (text) => {
            try {
              for (const r of feedAll(text)) expect(Array.isArray(r.fields)).toBe(true);
            } catch (err) {
              expect(["csv_bad_quote", "csv_unterminated_quote"]).toContain(expectImportError(err).code);
            }
          },
        ),
      );
    },
    timeoutFor(),
  );

  it(
    "timestamps: the exact microsecond of a valid stamp with an offset (BigInt calendar), else undefined",
    () => {
      const stampArb = fc.record({
        y: fc.oneof(fc.integer({ min: 1960, max: 2300 }), fc.integer({ min: 0, max: 9999 })),
        mo: fc.integer({ min: 0, max: 13 }),
        d: fc.integer({ min: 0, max: 32 }),
        h: fc.integer({ min: 0, max: 25 }),
        mi: fc.integer({ min: 0, max: 61 }),
        s: fc.integer({ min: 0, max: 61 }),
        frac: fc.option(fc.stringMatching(/^\d{1,7}$/)),
        sep: fc.constantFrom("T", " ", "t", "_"),
        zone: fc.oneof(
          fc.constantFrom("Z", " Z", "", "z", "+0100", " +01", "-05:30", " -0000", "+2400", "+01:60", "+1"),
          fc
            .tuple(
              fc.constantFrom("+", "-"),
              fc.integer({ min: 0, max: 25 }),
              fc.integer({ min: 0, max: 61 }),
            )
            .map(([sg, hh, mm]) => `${sg}${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}`),
        ),
      });
      const p2 = (n: number) => String(n).padStart(2, "0");
      /** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
      const days = (y: number, m: number, d: number) => {
        const yy = BigInt(m <= 2 ? y - 1 : y);
        const era = (yy >= 0n ? yy : yy - 399n) / 400n;
        const yoe = yy - era * 400n;
        const mp = BigInt((m + 9) % 12);
        const doy = (153n * mp + 2n) / 5n + BigInt(d - 1);
        const doe = yoe * 365n + yoe / 4n - yoe / 100n + doy;
        return era * 146097n + doe - 719468n;
      };
      const monthDays = (y: number, m: number) =>
        [
          31,
          y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28,
          31,
          30,
          31,
          30,
          31,
          31,
          30,
          31,
          30,
          31,
        ][m - 1] ?? 0;
      fuzz(
        "import: timestamps",
        fc.property(stampArb, (t) => {
          const text = `${String(t.y).padStart(4, "0")}-${p2(t.mo)}-${p2(t.d)}${t.sep}${p2(t.h)}:${p2(t.mi)}:${p2(t.s)}${t.frac === null ? "" : `.${t.frac}`}${t.zone}`;
          const z = /^ ?(Z|([+-])(\d{2})(?::?(\d{2}))?)$/.exec(t.zone);
          const oh = Number(z?.[3] ?? 0);
          const om = Number(z?.[4] ?? 0);
          const valid =
            t.y >= 1970 &&
            t.mo >= 1 &&
            t.mo <= 12 &&
            t.d >= 1 &&
            t.d <= monthDays(t.y, t.mo) &&
            t.h <= 23 &&
            t.mi <= 59 &&
            t.s <= 59 &&
            (t.frac === null || t.frac.length <= 6) &&
            (t.sep === "T" || t.sep === " ") &&
            z !== null &&
            oh <= 23 &&
            om <= 59;
          const got = parseTimestampMicros(text);
          if (!valid) return void expect(got, text).toBeUndefined();
          const offset = (z?.[2] === "-" ? -1n : 1n) * BigInt(oh * 60 + om);
          const secs = days(t.y, t.mo, t.d) * 86_400n + BigInt(t.h * 3600 + t.mi * 60 + t.s) - offset * 60n;
          const want = secs * 1_000_000n + BigInt((t.frac ?? "").padEnd(6, "0"));
          // Exact or refused: a value beyond 2^53 cannot be held exactly in a number.
          if (want > BigInt(Number.MAX_SAFE_INTEGER) || want < -BigInt(Number.MAX_SAFE_INTEGER)) {
            expect(got, text).toBeUndefined();
          } else {
            expect(got === undefined ? undefined : BigInt(got), text).toBe(want);
          }
        }),
      );
    },
    timeoutFor(),
  );

  const lineArb = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.nat(MARKET_FRAMES.length - 1), fc.integer({ min: 0, max: 2e12 }))
        .map(([i, ts]) =>
          recordLine({ recvTs: ts, frame: MARKET_FRAMES[i] as RecordedFrame["frame"] }).trimEnd(),
        ),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.nat(MARKET_FRAMES.length - 1), mutationsArb, textMutationsArb)
        .map(([i, ms, ts]) =>
          mutateTextAll(
            JSON.stringify(mutateAll({ recvTs: 1_750_000_000_000, frame: MARKET_FRAMES[i] }, ms)) ?? "",
            ts,
          ).replaceAll("\n", " "),
        ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => s.replaceAll("\n", "")) },
  );

  /** What the reader must make of one line: a record, nothing (blank), or a problem. */
  function expectedLine(text: string): "record" | "blank" | "bad" {
    if (text === "") return "blank";
    const p = tryParse(text);
    if (!p.ok || typeof p.value !== "object" || p.value === null || Array.isArray(p.value)) return "bad";
    const v = p.value as Record<string, unknown>;
    const f = v.frame;
    const ok =
      // Whole milliseconds only: a fractional recvTs broke BigInt fill times in the backtest.
      Number.isInteger(v.recvTs) &&
      // Milliseconds since the epoch: a stamp in seconds or microseconds is refused.
      (v.recvTs as number) >= MIN_RECV_TS_MS &&
      (v.recvTs as number) <= MAX_RECV_TS_MS &&
      typeof f === "object" &&
      f !== null &&
      !Array.isArray(f) &&
      typeof (f as Record<string, unknown>).type === "string";
    return ok ? "record" : "bad";
  }

  let fileNo = 0;
  it(
    "recorded files: each line yields its record, is skipped when blank, or is reported bad on its own line",
    async () => {
      await fuzzAsync(
        "import: recorded JSONL.gz files",
        fc.asyncProperty(
          fc.array(lineArb, { minLength: 1, maxLength: 12 }),
          fc.nat(2),
          async (written, split) => {
            const path = join(dir, `r${fileNo++}.jsonl.gz`);
            const bytes = Buffer.from(`${written.join("\n")}\n`);
            // Concatenated gzip members are one file to the reader, even split inside a character.
            const cut = Math.floor((bytes.length * split) / 3);
            writeFileSync(
              path,
              Buffer.concat([gzipSync(bytes.subarray(0, cut)), gzipSync(bytes.subarray(cut))]),
            );
            // What the file holds: the lines as UTF-8 (a lone surrogate reads back as U+FFFD).
            const lines = written.map((l) => Buffer.from(l).toString());
            const expected = lines.map(expectedLine);
            const bad: number[] = [];
            const got: RecordedFrame[] = [];
            for await (const r of readRecorded(path, { onBadLine: (line) => bad.push(line) })) got.push(r);
            expect(bad).toEqual(expected.flatMap((e, i) => (e === "bad" ? [i + 1] : [])));
            expect(got).toEqual(lines.filter((_, i) => expected[i] === "record").map((l) => JSON.parse(l)));
            const firstBad = expected.indexOf("bad");
            try {
              let n = 0;
              for await (const _ of readRecorded(path)) n++;
              expect(firstBad).toBe(-1);
              expect(n).toBe(got.length);
            } catch (err) {
              if (!(err instanceof RecordedFormatError)) throw err;
              const e = err;
              expect(e.code).toBe("bad_record");
              expect(e.details.file).toBe(path);
              expect(e.details.line).toBe(firstBad + 1);
            }
            rmSync(path);
          },
        ),
        0.02,
      );
    },
    timeoutFor(0.02),
  );

  const COND = `0x${"ab".repeat(32)}`;
  const ch = (side: string, price: string, size: string) =>
    `"[{""side"": ""${side}"", ""size"": ""${size}"", ""price"": ""${price}""}]"`;
  const CSV_LINES = [
    '"id","asset_id","market","timestamp","hash","changes"',
    `30,"111",${COND},2025-01-25 18:00:02.000 +0100,h3,${ch("SELL", "0.6", "5")}`,
    `10,"111","${COND}",2025-01-25 18:00:00.000 +0100,"h1",${ch("BUY", "0.4", "1.5")}`,
    `19,222,${COND},2025-01-25 17:00:01.000 +0000,h2,${ch("BUY", "0.1", "7")}`,
    `20,"111",${COND},2025-01-25 18:00:01.000 +0100,h2,${ch("BUY", "0.40", "0")}`,
  ];

  it(
    "Polymarket import: a mutated CSV imports into frames the live validator accepts, or fails with ImportError and no file",
    async () => {
      await fuzzAsync(
        "import: Polymarket price_change CSV files",
        fc.asyncProperty(
          fc.array(fc.nat(CSV_LINES.length - 2), { maxLength: 6 }),
          fc.option(textMutationsArb, { freq: 4 }),
          fc.constantFrom("\n", "\r\n"),
          async (rows, ts, eol) => {
            const input = join(dir, `p${fileNo}.csv`);
            const output = join(dir, `p${fileNo++}.jsonl.gz`);
            const text = mutateTextAll(
              [CSV_LINES[0], ...rows.map((r) => CSV_LINES[r + 1])].join(eol),
              ts ?? [],
            );
            writeFileSync(input, text);
            try {
              const summary = await importPolymarketPriceChanges({ input, output });
              const frames: RecordedFrame[] = [];
              for await (const r of readRecorded(output)) frames.push(r);
              expect(frames.length).toBe(summary.frames);
              for (const { frame } of frames) {
                const r = parseEventFrame(frame as Record<string, unknown>, "market");
                expect("rejected" in r ? r : "ok").toBe("ok");
              }
              if (ts === null) expect(summary.rows).toBe(rows.length);
            } catch (err) {
              expectImportError(err);
              expect(existsSync(output)).toBe(false);
            }
            expect(existsSync(`${output}.partial`)).toBe(false);
            rmSync(input);
            rmSync(output, { force: true });
          },
        ),
        0.02,
      );
    },
    timeoutFor(0.02),
  );
});
