import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { MarketDefaults } from "../../../src/backtest/replay/replay-config.js";
import { scanTokens } from "../../../src/backtest/replay/scan-tokens.js";
import { isBookEvent } from "../../../src/gateway/market-data-feed.js";
import { parseEventFrame } from "../../../src/gateway/schema/events.js";

/*
 * The token scan parses only lines that could name a token it has not found yet. Its answer must
 * be the plain rule's — every line parsed, the tokens of valid book frames in order of first
 * appearance — whatever the spelling of the lines: whitespace, an escaped key, duplicate keys,
 * frames naming their token only in the envelope or only in the data, invalid frames, other events.
 */

const dir = mkdtempSync(join(tmpdir(), "mm-scan-tokens-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DEFAULTS = { tickMicro: 10_000, minSizeMicro: 1n, feeTakerBps: 0 } as MarketDefaults;
const TOKENS = [
  "11",
  "22",
  "33",
  "4444444444444444444444444444444444444444444444444444444444444444444444444444",
];

interface Gen {
  readonly type: string;
  readonly token: number;
  readonly envelope: "same" | "none" | "other";
  readonly data: "same" | "none";
  readonly valid: boolean;
  readonly spelling: "plain" | "spaced" | "escapedKey" | "duplicate" | "tokenInText";
}

const gen: fc.Arbitrary<Gen> = fc.record({
  type: fc.constantFrom("book_snapshot", "book_delta", "trade_matched", "market_status"),
  token: fc.integer({ min: 0, max: TOKENS.length - 1 }),
  envelope: fc.constantFrom("same", "none", "other"),
  data: fc.constantFrom("same", "none"),
  valid: fc.boolean(),
  spelling: fc.constantFrom("plain", "spaced", "escapedKey", "duplicate", "tokenInText"),
});

function line(g: Gen, i: number): string {
  const t = TOKENS[g.token] as string;
  const other = TOKENS[(g.token + 1) % TOKENS.length] as string;
  const data: Record<string, unknown> = { seq: i + 1, tsMs: 1_000 + i, conditionId: `0xC${g.token}` };
  if (g.data === "same") data.tokenId = t;
  if (g.type === "book_snapshot") {
    data.bids = g.valid ? [{ price: "0.40", size: "10" }] : [{ price: "x", size: "10" }];
    data.asks = [{ price: "0.60", size: "10" }];
  } else if (g.type === "book_delta") {
    data.prevSeq = i;
    data.changes = g.valid ? [{ side: "buy", price: "0.41", size: "5" }] : "none";
  }
  const frame: Record<string, unknown> = { type: g.type, sid: 1, channel: "token_book", data };
  if (g.envelope === "same") frame.id = t;
  if (g.envelope === "other") frame.id = other;
  if (g.type === "market_status") frame.channel = "market_status";
  if (g.type === "trade_matched") frame.channel = "market_trades";
  const rec = JSON.stringify({ recvTs: 1_750_000_000_000 + i, frame });
  switch (g.spelling) {
    case "plain":
      return rec;
    case "spaced":
      return JSON.stringify({ recvTs: 1_750_000_000_000 + i, frame }, null, 1).replace(/\n/g, " ");
    case "escapedKey": // the same JSON, key "id" spelled with a \u escape
      return rec.replace('"id":', '"\\u0069d":');
    case "duplicate": // a decoy value first: JSON.parse keeps the last
      return rec.replace('"tokenId":', `"tokenId":"${other}","tokenId":`);
    case "tokenInText": // a token in another string value, which is no key
      return rec.replace('"channel":', `"note":"id","x":"${t}","channel":`);
  }
}

/** The plain rule: every line parsed. */
function reference(lines: readonly string[]): string[] {
  const found: string[] = [];
  for (const l of lines) {
    const frame = (JSON.parse(l) as { frame: Record<string, unknown> }).frame;
    const p = parseEventFrame(frame, "market");
    if ("rejected" in p || !isBookEvent(p.event) || found.includes(p.event.tokenId)) continue;
    found.push(p.event.tokenId);
  }
  return found;
}

let files = 0;
async function scan(lines: readonly string[]): Promise<string[]> {
  const file = join(dir, `r${files++}.jsonl.gz`);
  writeFileSync(file, gzipSync(`${lines.join("\n")}\n`));
  return (await scanTokens([file], DEFAULTS)).map((t) => t.tokenId);
}

describe("scanTokens", () => {
  it("finds the tokens the plain rule finds, parsing only lines that could name a new one", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(gen, { minLength: 1, maxLength: 40 }), async (gens) => {
        const lines = gens.map(line);
        expect(await scan(lines)).toEqual(reference(lines));
      }),
      { numRuns: 200 },
    );
  });

  it("sees a token whose only valid frame is spelled with an escaped key, late in a long file", async () => {
    const first = line(
      { type: "book_snapshot", token: 0, envelope: "same", data: "same", valid: true, spelling: "plain" },
      0,
    );
    const many = Array.from({ length: 5_000 }, (_, i) =>
      line(
        { type: "book_delta", token: 0, envelope: "same", data: "same", valid: true, spelling: "plain" },
        i + 1,
      ),
    );
    // Token 22 only in the envelope, behind an escaped key: the data does not name it.
    const late = line(
      {
        type: "book_snapshot",
        token: 1,
        envelope: "same",
        data: "none",
        valid: true,
        spelling: "escapedKey",
      },
      6_000,
    );
    expect(await scan([first, ...many, late])).toEqual(["11", "22"]);
  });
});
