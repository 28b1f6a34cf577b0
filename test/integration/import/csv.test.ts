import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CsvParser, csvRecords } from "../../../src/backtest/import/csv.js";
import { ImportError } from "../../../src/backtest/import/errors.js";

async function parse(text: string): Promise<string[][]> {
  const lines = createInterface({ input: Readable.from([text]), crlfDelay: Number.POSITIVE_INFINITY });
  const out: string[][] = [];
  for await (const r of csvRecords(lines, "t.csv")) out.push(r.fields);
  return out;
}

describe("CSV parser (RFC 4180)", () => {
  it("splits plain and quoted fields, with commas, doubled quotes and empty fields", async () => {
    expect(await parse('a,b,c\n1,"x, y","say ""hi"""\n,"",\n')).toEqual([
      ["a", "b", "c"],
      ["1", "x, y", 'say "hi"'],
      ["", "", ""],
    ]);
  });

  it("keeps newlines inside quoted fields, handles CRLF, a BOM, blank lines and no final newline", async () => {
    expect(await parse('\uFEFFid,note\r\n1,"line one\r\nline two"\r\n\r\n2,"x"')).toEqual([
      ["id", "note"],
      ["1", "line one\nline two"],
      ["2", "x"],
    ]);
  });

  it("strips a BOM at the start of every record (CSVs joined with cat), not inside a quoted field", async () => {
    expect(await parse('\uFEFFid,note\n1,a\n\uFEFFid,note\n\uFEFF"id",note\n2,"x\n\uFEFFy"\n')).toEqual([
      ["id", "note"],
      ["1", "a"],
      ["id", "note"],
      ["id", "note"],
      ["2", "x\n\uFEFFy"],
    ]);
  });

  it("parses the capture's quoted JSON column", async () => {
    const row =
      '2814,"1913",2025-01-25 18:15:51.766 +0100,"14cf","[{""side"": ""SELL"", ""size"": ""5165"", ""price"": ""0.31""}]"';
    const [fields] = await parse(row);
    expect(fields?.[2]).toBe("2025-01-25 18:15:51.766 +0100");
    expect(JSON.parse(fields?.[4] ?? "")).toEqual([{ side: "SELL", size: "5165", price: "0.31" }]);
  });

  it("reports the line a record started on", () => {
    const p = new CsvParser("t.csv");
    expect(p.feed("a,b")?.line).toBe(1);
    expect(p.feed('"multi')).toBeUndefined();
    expect(p.feed('line",2')).toEqual({ fields: ["multi\nline", "2"], line: 2 });
  });

  it("refuses text after a closing quote and an unterminated quote, naming the line", async () => {
    await expect(parse('a,b\n"x"y,1\n')).rejects.toMatchObject({
      code: "csv_bad_quote",
      details: { line: 2 },
    });
    const err = await parse('a,b\n1,"never closed\n2,3\n').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect(err).toMatchObject({ code: "csv_unterminated_quote", details: { line: 2 } });
  });
});
