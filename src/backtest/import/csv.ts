import { ImportError } from "./errors.js";

const QUOTE = 34;
const COMMA = 44;

/** One CSV record and the physical line it started on (1-based). */
export interface CsvRecord {
  readonly fields: string[];
  readonly line: number;
}

/**
 * An RFC 4180 record parser fed one physical line at a time (as node:readline yields them):
 * fields separated by commas; a field starting with `"` is quoted, may contain commas, newlines
 * and `""` for a quote; an unquoted field is taken as is. Blank lines between records are skipped.
 * Throws ImportError `csv_bad_quote` for text after a closing quote and `csv_unterminated_quote`
 * when the input ends inside quotes.
 * @example
 * const p = new CsvParser("in.csv");
 * p.feed('1,"a ""b"", c"'); // { fields: ["1", 'a "b", c'], line: 1 }
 */
export class CsvParser {
  readonly #file: string;
  #line = 0;
  #start = 0;
  #fields: string[] = [];
  #field = "";
  #inQuotes = false;

  constructor(file: string) {
    this.#file = file;
  }

  /** Feeds the next line (without its line break); returns a record when one is complete. */
  feed(line: string): CsvRecord | undefined {
    this.#line++;
    if (this.#inQuotes) this.#field += "\n";
    else if (line === "") return undefined;
    else this.#start = this.#line;
    let i = 0;
    while (i <= line.length) {
      if (this.#inQuotes) {
        const q = line.indexOf('"', i);
        if (q < 0) {
          this.#field += line.slice(i);
          return undefined; // the quoted field goes on on the next line
        }
        this.#field += line.slice(i, q);
        if (line.charCodeAt(q + 1) === QUOTE) {
          this.#field += '"';
          i = q + 2;
          continue;
        }
        this.#inQuotes = false;
        this.#fields.push(this.#field);
        i = q + 1;
        if (i === line.length) return this.#finish();
        if (line.charCodeAt(i) !== COMMA) {
          throw new ImportError("csv_bad_quote", `${this.#file}:${this.#line}: text after a closing quote`, {
            file: this.#file,
            line: this.#line,
          });
        }
        i++;
        if (i === line.length) {
          this.#fields.push("");
          return this.#finish();
        }
      } else if (line.charCodeAt(i) === QUOTE) {
        this.#inQuotes = true;
        this.#field = "";
        i++;
      } else {
        const c = line.indexOf(",", i);
        if (c < 0) {
          this.#fields.push(line.slice(i));
          return this.#finish();
        }
        this.#fields.push(line.slice(i, c));
        i = c + 1;
      }
    }
    return this.#finish();
  }

  /** True while a quoted field runs on past the last line fed (the next line continues it). */
  get inQuotedField(): boolean {
    return this.#inQuotes;
  }

  /** Call at the end of input: throws if a quoted field was never closed. */
  end(): void {
    if (this.#inQuotes) {
      throw new ImportError(
        "csv_unterminated_quote",
        `${this.#file}:${this.#start}: quoted field never closed before the end of the file`,
        { file: this.#file, line: this.#start },
      );
    }
  }

  #finish(): CsvRecord {
    const record = { fields: this.#fields, line: this.#start };
    this.#fields = [];
    this.#field = "";
    return record;
  }
}

/**
 * Streams the records of a CSV given as lines (e.g. from node:readline); strips a UTF-8 BOM
 * (U+FEFF) at the start of any record, not only the file's first: CSVs joined with `cat` carry
 * one before each part's header. A BOM on a line continuing a quoted field is kept (it is data).
 * @example for await (const r of csvRecords(rl, "in.csv")) console.log(r.fields);
 */
export async function* csvRecords(lines: AsyncIterable<string>, file: string): AsyncGenerator<CsvRecord> {
  const parser = new CsvParser(file);
  for await (const raw of lines) {
    const line = !parser.inQuotedField && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    const record = parser.feed(line);
    if (record !== undefined) yield record;
  }
  parser.end();
}
