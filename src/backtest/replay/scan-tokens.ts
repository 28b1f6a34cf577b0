import { isBookEvent } from "../../gateway/market-data-feed.js";
import { parseEventFrame } from "../../gateway/schema/events.js";
import { parseLine, type ReadOptions, readRecordedText } from "../../recorded/format.js";
import type { TokenSetting } from "../sim/markets.js";
import type { MarketDefaults } from "./replay-config.js";

/**
 * The tokens of a recording, for a config that lists none: one streaming pass over the files
 * (nothing kept but the tokens), every token with a valid token_book frame, in order of first
 * appearance, with its conditionId and outcomeIndex when the frames carry them and the config's
 * market defaults.
 *
 * Only lines that could name a token not found yet are parsed (`mayNameNewToken`): once a
 * recording's few tokens are known, the pass is decompression and a substring search per line,
 * not a JSON.parse — which was half of a replay's reading. A bad line is not always parsed here;
 * the replay that follows reads every line and reports it. A file cut short throws, unless
 * `onTruncated` is given (ReadOptions: its complete lines are scanned).
 * @example await scanTokens(["day.jsonl.gz"], defaults) // [{ tokenId: "1913…", conditionId: "0xe0a5…", … }]
 */
export async function scanTokens(
  files: readonly string[],
  d: MarketDefaults,
  opts: Pick<ReadOptions, "onTruncated"> = {},
): Promise<TokenSetting[]> {
  const found = new Map<string, TokenSetting>();
  for (const file of files) {
    for await (const { text, firstLine } of readRecordedText(file, opts)) {
      let from = 0;
      let slash = -1; // the next backslash at or after `from` (-2: none left in the run)
      for (let line = firstLine; ; line++) {
        const nl = text.indexOf("\n", from);
        const end = nl < 0 ? text.length : nl;
        if (slash !== -2 && slash < from) slash = nextSlash(text, from);
        const lineText = text.slice(from, end);
        if ((slash >= 0 && slash < end) || mayNameNewToken(lineText, found)) {
          const rec = parseLine(file, line, lineText);
          if (rec !== undefined) note(rec.frame as Record<string, unknown>, found, d);
        }
        if (nl < 0) break;
        from = nl + 1;
      }
    }
  }
  return [...found.values()];
}

function note(frame: Record<string, unknown>, found: Map<string, TokenSetting>, d: MarketDefaults): void {
  const parsed = parseEventFrame(frame, "market");
  if ("rejected" in parsed || !isBookEvent(parsed.event)) return;
  const e = parsed.event;
  // A refused snapshot (a mistyped id the recorder kept retrying) does not make a token traded.
  if (e.type === "book_snapshot_failed") return;
  if (found.has(e.tokenId)) return;
  found.set(e.tokenId, {
    tokenId: e.tokenId,
    conditionId: (e.conditionId ?? `0x${e.tokenId}`).toLowerCase(),
    ...(e.outcomeIndex === undefined ? {} : { outcomeIndex: e.outcomeIndex }),
    tickMicro: d.tickMicro,
    minSizeMicro: d.minSizeMicro,
    feeTakerBps: d.feeTakerBps,
    ...(d.closesAtMs === undefined ? {} : { closesAtMs: d.closesAtMs }),
  });
}

/**
 * Whether a line without a backslash could be a valid book frame of a
 * token not in `found`. Such a frame names its token as a JSON string under the key "tokenId" (its
 * data) or "id" (its envelope) — the parser takes either. Without a backslash, a key has one
 * spelling (`"id"`, then optional whitespace and a colon) and a string value runs to the next
 * quote; so a line whose every such value is a known token, or that has none, cannot add a token.
 * A line with a backslash (an escaped key or value) is always parsed: the caller checks.
 */
function mayNameNewToken(line: string, found: ReadonlyMap<string, unknown>): boolean {
  return unseenValue(line, '"tokenId"', found) || unseenValue(line, '"id"', found);
}

// Some string value of `key` in the line is not in `found`.
function unseenValue(line: string, key: string, found: ReadonlyMap<string, unknown>): boolean {
  for (let at = line.indexOf(key); at >= 0; at = line.indexOf(key, at + 1)) {
    let i = skipSpace(line, at + key.length);
    if (line.charCodeAt(i) !== COLON) continue; // a string value "id", not a key
    i = skipSpace(line, i + 1);
    if (line.charCodeAt(i) !== QUOTE) continue; // not a string value: no token here
    const close = line.indexOf('"', i + 1);
    if (close < 0 || !found.has(line.slice(i + 1, close))) return true;
  }
  return false;
}

const COLON = 58;
const QUOTE = 34;

function skipSpace(text: string, i: number): number {
  let j = i;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) break;
    j++;
  }
  return j;
}

// Searched once per backslash, not once per line: a run without any is scanned once.
function nextSlash(text: string, from: number): number {
  const at = text.indexOf("\\", from);
  return at < 0 ? -2 : at;
}
