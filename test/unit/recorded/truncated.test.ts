import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RecordedFormatError } from "../../../src/recorded/errors.js";
import {
  firstRecord,
  type ReadOptions,
  type RecordedFrame,
  RecordedWriter,
  readRecorded,
  readRecordedText,
  recordLine,
} from "../../../src/recorded/format.js";
import { crashCut, deltaRecord } from "../../support/recorded-cut.js";

/*
 * A recorder killed mid-file leaves a gzip stream without its end, usually stopping inside a line.
 * Readers given `onTruncated` deliver every complete line, drop the partial last one and report
 * the file; without it (the default) such a file throws RecordedFormatError `truncated`. Other
 * damage (not gzip, corrupt data) is RecordedFormatError `bad_gzip` whatever the options.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-recorded-cut-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rec = deltaRecord;

async function readAll(path: string, opts: ReadOptions = {}): Promise<RecordedFrame[]> {
  const out: RecordedFrame[] = [];
  for await (const r of readRecorded(path, opts)) out.push(r);
  return out;
}

async function tolerant(path: string): Promise<{ recs: RecordedFrame[]; cut: string[] }> {
  const cut: string[] = [];
  const recs = await readAll(path, { onTruncated: (f) => cut.push(f) });
  return { recs, cut };
}

describe("reading a recorded file cut short", () => {
  it("a writer killed after a flush leaves every flushed record readable, and only those", async () => {
    const path = join(dir, "live.jsonl.gz");
    const w = RecordedWriter.create(path);
    for (let i = 0; i < 300; i++) await w.write(rec(i));
    await w.flush();
    for (let i = 300; i < 350; i++) await w.write(rec(i)); // still in the writer's batch
    const killed = join(dir, "killed.jsonl.gz");
    copyFileSync(path, killed); // the file as a SIGKILL now would leave it
    await w.close();

    const { recs, cut } = await tolerant(killed);
    expect(recs).toEqual(Array.from({ length: 300 }, (_, i) => rec(i)));
    expect(cut).toEqual([killed]);
    const err = await readAll(killed).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordedFormatError);
    expect(err).toMatchObject({ code: "truncated", details: { file: killed } });
    expect((err as Error).message).toContain(killed);
    // The finished file is complete: no callback.
    expect(await tolerant(path)).toEqual({ recs: Array.from({ length: 350 }, (_, i) => rec(i)), cut: [] });
  });

  it("drops the partial last line and delivers the whole lines before it, as text and as records", async () => {
    const path = join(dir, "partial.jsonl.gz");
    const lines = Array.from({ length: 80 }, (_, i) => recordLine(rec(i)));
    writeFileSync(path, await crashCut([lines.join(""), recordLine(rec(80)).slice(0, 37)]));
    const runs: string[] = [];
    const cut: string[] = [];
    for await (const r of readRecordedText(path, { onTruncated: (f) => cut.push(f) })) runs.push(r.text);
    expect(`${runs.join("\n")}\n`).toBe(lines.join(""));
    expect(cut).toEqual([path]);
    expect((await tolerant(path)).recs).toHaveLength(80);
  });

  it("at any cut point, delivers exactly the complete lines a full decompression of the bytes gives", async () => {
    // ~1.5 MB of text: several decompressed chunks, so the cut falls after chunks of every size.
    const text = Array.from({ length: 5_000 }, (_, i) => recordLine(rec(i))).join("");
    const full = await crashCut([text.slice(0, 700_000), text.slice(700_000)]);
    const path = join(dir, "cut-anywhere.jsonl.gz");
    for (let k = 1; k <= 12; k++) {
      const bytes = full.subarray(0, Math.floor((full.length * k) / 12));
      writeFileSync(path, bytes);
      const decodable = gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString("utf8");
      const complete = decodable.slice(0, decodable.lastIndexOf("\n") + 1);
      const { recs, cut } = await tolerant(path);
      expect(recs.map(recordLine).join("")).toBe(complete);
      expect(cut).toEqual([path]);
    }
  });

  it("an empty file, or one holding only the gzip header, is a cut file without records", async () => {
    for (const [name, bytes] of [
      ["empty", Buffer.alloc(0)],
      ["header", gzipSync("").subarray(0, 10)],
    ] as const) {
      const path = join(dir, `${name}.jsonl.gz`);
      writeFileSync(path, bytes);
      expect(await tolerant(path)).toEqual({ recs: [], cut: [path] });
      await expect(readAll(path)).rejects.toMatchObject({ code: "truncated" });
      expect(await firstRecord(path, { onTruncated: () => undefined })).toBeUndefined();
    }
  });

  it("other damage is bad_gzip naming the file, even with onTruncated", async () => {
    const notGzip = join(dir, "plain.jsonl.gz");
    writeFileSync(notGzip, recordLine(rec(0)));
    const e1 = await tolerant(notGzip).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(RecordedFormatError);
    expect(e1).toMatchObject({ code: "bad_gzip", details: { file: notGzip, zlib: "Z_DATA_ERROR" } });
    expect((e1 as Error).message).toBe(`${notGzip}: not a valid gzip file (incorrect header check)`);

    // A wrong checksum in the gzip end: the data decompresses, then zlib refuses the file.
    const badCrc = join(dir, "crc.jsonl.gz");
    const gz = gzipSync(Array.from({ length: 100 }, (_, i) => recordLine(rec(i))).join(""));
    gz[gz.length - 8] = (gz[gz.length - 8] as number) ^ 0xff;
    writeFileSync(badCrc, gz);
    const seen: number[] = [];
    const e2 = await (async () => {
      for await (const r of readRecorded(badCrc, { onTruncated: () => undefined })) seen.push(r.recvTs);
    })().catch((e: unknown) => e);
    expect(e2).toMatchObject({ code: "bad_gzip", details: { file: badCrc } });
    // What zlib decompressed in the same step as the failure is lost with it; what came before is exact.
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => rec(i).recvTs));
  });

  it("firstRecord reads the first record only (skipping empty lines); a missing file is ENOENT", async () => {
    const path = join(dir, "first.jsonl.gz");
    writeFileSync(path, gzipSync(`\n${recordLine(rec(7))}not json\n`));
    expect(await firstRecord(path)).toEqual(rec(7)); // the bad line 3 is never parsed
    const empty = join(dir, "no-records.jsonl.gz");
    writeFileSync(empty, gzipSync("\n\n"));
    expect(await firstRecord(empty)).toBeUndefined();
    await expect(firstRecord(join(dir, "missing.jsonl.gz"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
