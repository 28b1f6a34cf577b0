import { isBookEvent } from "../../gateway/market-data-feed.js";
import { parseEventFrame } from "../../gateway/schema/events.js";
import { readRecorded } from "../../recorded/format.js";
import type { TokenSetting } from "../sim/markets.js";
import type { MarketDefaults } from "./replay-config.js";

/**
 * The tokens of a recording, for a config that lists none: one streaming pass over the files
 * (nothing kept but the tokens), every token with a valid token_book frame, in order of first
 * appearance, with its conditionId and outcomeIndex when the frames carry them and the config's
 * market defaults.
 * @example await scanTokens(["day.jsonl.gz"], defaults) // [{ tokenId: "1913…", conditionId: "0xe0a5…", … }]
 */
export async function scanTokens(files: readonly string[], d: MarketDefaults): Promise<TokenSetting[]> {
  const found = new Map<string, TokenSetting>();
  for (const file of files) {
    for await (const { frame } of readRecorded(file)) {
      const parsed = parseEventFrame(frame as Record<string, unknown>, "market");
      if ("rejected" in parsed || !isBookEvent(parsed.event)) continue;
      const e = parsed.event;
      if (found.has(e.tokenId)) continue;
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
  }
  return [...found.values()];
}
