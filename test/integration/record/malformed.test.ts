import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type RecordableChannel, record } from "../../../src/gateway/record/recorder.js";
import { type RecordedFrame, readRecorded } from "../../../src/recorded/format.js";
import { settle, until } from "../gateway/harness.js";
import { politeAnswer, RawServer } from "../gateway/raw-server.js";

/*
 * review17-rec: RecordSummary.malformed said malformed frames were "recorded anyway". Those that
 * fail the event's validation are (they reach the recorder as received), but a frame that is not
 * JSON, not an object or has no type cannot be a record of the format ({recvTs, frame: {type…}})
 * and is counted, never written. The summary now says how many of `malformed` are not in the files.
 */

let server: RawServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

const TOKEN = "111";
const CONDITION = `0x${"ab".repeat(32)}`;
const trade = (extra: Record<string, unknown>) => ({
  type: "trade_matched",
  sid: 1,
  channel: "token_trade_matches",
  id: TOKEN,
  data: {
    tokenId: TOKEN,
    conditionId: CONDITION,
    outcomeIndex: 0,
    tradeId: "t1",
    quantity: "1",
    side: "buy",
    source: "matcher",
    tsMs: 1,
    ...extra,
  },
});

/** `mm record` of TOKEN's `channels` from `srv` into a fresh folder (both removed after the test). */
function recordFrom(srv: RawServer, channels: readonly RecordableChannel[]) {
  server = srv;
  const out = mkdtempSync(join(tmpdir(), "mm-record-malformed-"));
  dir = out;
  const abort = new AbortController();
  const run = record({
    url: srv.url,
    apiKey: "k",
    tokens: [TOKEN],
    channels,
    outDir: out,
    rotate: { maxBytes: 1 << 30, maxAgeMs: 3_600_000 },
    signal: abort.signal,
  });
  return { abort, run };
}

describe("mm record: malformed frames", () => {
  it("writes those that fail validation as received; those that cannot be a record are counted apart", async () => {
    const srv = await new RawServer(politeAnswer()).listen();
    const { abort, run } = recordFrom(srv, ["token_trade_matches"]);
    await until(() => srv.commands("subscribe").length > 0, "the subscribe");
    await settle(50);
    const conn = srv.conns[0];
    conn?.sendText("not json {");
    conn?.sendText("[1, 2]");
    conn?.send({ channel: "token_trade_matches", data: {} });
    conn?.send(trade({})); // no price: refused by validation
    conn?.send(trade({ price: "0.5" }));
    await settle(200);
    abort.abort();
    const summary = await run;
    expect(summary.malformed).toBe(4);
    expect(summary.malformedUnrecorded).toBe(3);
    const recs: RecordedFrame[] = [];
    for (const f of summary.files) for await (const r of readRecorded(f)) recs.push(r);
    expect(recs.map((r) => (r.frame.data as { price?: string }).price)).toEqual([undefined, "0.5"]);
    expect(summary.frames).toBe(2);
  });

  it("a reply with an error object but no type is the refusal it is, as the gateway reads it: not malformed", async () => {
    // The spec shows no WebSocket error payload; a server using the HTTP envelope's shape may send
    // `{id, error: {code, message}}` alone. parseErrorReply reads that nested code, so the frame
    // is an error reply, refused by its code: never a malformed frame the summary blames the feed for.
    const polite = politeAnswer();
    const srv = await new RawServer((c, conn) =>
      c.cmd === "subscribe" && JSON.stringify(c.params).includes('"system"')
        ? { error: { code: "forbidden", message: "no system channel" } }
        : polite(c, conn),
    ).listen();
    const { abort, run } = recordFrom(srv, ["token_trade_matches", "system"]);
    await until(() => srv.commands("subscribe").length >= 2, "both subscribes");
    await settle(50);
    // And one to a command long gone (its id was never ours): a late reply, not malformed either.
    srv.conns[0]?.send({ id: "c999", error: { code: "rate_limited", message: "late" } });
    srv.conns[0]?.send(trade({ price: "0.5" }));
    await settle(200);
    abort.abort();
    const summary = await run;
    expect(summary.malformed).toBe(0);
    expect(summary.rejected).toMatchObject([{ channel: "system", code: "forbidden" }]);
    expect(summary.frames).toBe(1);
  });
});
