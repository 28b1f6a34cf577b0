import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/observability/logger.js";
import { prettyFields } from "../../../src/observability/pretty-fields.js";
import { humanLogStream } from "../../../src/observability/pretty-line.js";

const MARKET = "9a7b0c1d-0000-4000-8000-000000000300";
const TOKEN = "34256459913962674934787247946255017729385173334702956934175892752281248529327";
const API_KEY = "mm_live_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcd";
const API_SECRET = API_KEY.split("_").slice(3).join("_");
const PRIVATE_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

function collector(): { stream: Writable; lines: () => string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  return { stream, lines: () => chunks.join("").split("\n").filter(Boolean) };
}

/** A logger writing what a terminal would show, without colours. */
function terminal(secrets: readonly string[] = []) {
  const out = collector();
  const log = createLogger({
    level: "debug",
    secrets,
    base: { cmd: "paper" },
    destination: humanLogStream(out.stream, { colorize: false, sync: true }),
  });
  return { log, lines: out.lines };
}

describe("pretty log line (a terminal: mm paper, npm start)", () => {
  it("names the market and token a risk decision is about", () => {
    const { log, lines } = terminal();
    // As src/engine/engine-decisions.ts writes it.
    log
      .child({ component: "engine" })
      .info(
        { reason: "market_not_open", action: "cancel", scope: "token", tokenId: TOKEN, marketId: MARKET },
        "risk: market_not_open",
      );
    const line = lines()[0] ?? "";
    expect(line).toContain("risk: market_not_open");
    expect(line).toContain(`marketId=${MARKET}`);
    expect(line).toContain("tokenId=342564…529327");
    expect(line).toContain("action=cancel");
    expect(line).toContain("scope=token");
    expect(line).not.toContain("reason="); // the message says it already
    expect(line).not.toContain("cmd=");
    expect(line.indexOf("marketId=")).toBeLessThan(line.indexOf("component=engine"));
  });

  it("gives a fill its order and trade, without repeating the position and PnL its message says", () => {
    const { log, lines } = terminal();
    log.info(
      {
        tradeId: "0017b404-fb2c-7fde-90cb-ed234f574a4b",
        clientOrderId: "mm-mt7kma3x-cb38613f64-s0-1795302866585002",
        source: "stream",
        positionMicro: "-10000000",
        pnlMicro: "150000",
      },
      "fill: sell 10 @ 0.56 arg-vs-fra-final-arg-win YES (position -10, PnL +0.15 USDC)",
    );
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatch(
      /INFO: fill: sell 10 @ 0\.56 .* clientOrderId=mm-mt7kma3x-cb38613f64-s0-1795302866585002 tradeId=0017b404-fb2c-7fde-90cb-ed234f574a4b source=stream$/,
    );
  });

  it("says why an order was rejected, and shows an error line's stack under it", () => {
    const { log, lines } = terminal();
    const err = Object.assign(new Error("price 0.555 is off the 0.01 tick"), { code: "invalid_tick_size" });
    log.warn(
      {
        tokenId: TOKEN,
        side: "buy",
        priceMicro: 555_000,
        sizeMicro: "10000000",
        clientOrderId: "mm-a-b-s0-1",
        err,
      },
      "order rejected",
    );
    log.error({ err }, "placement failed");
    const [warn, error, ...stack] = lines();
    expect(warn).toContain(
      'tokenId=342564…529327 side=buy price=0.555 size=10 clientOrderId=mm-a-b-s0-1 err="Error(invalid_tick_size): price 0.555 is off the 0.01 tick"',
    );
    expect(warn).not.toContain("at ");
    expect(error).toContain("ERROR: placement failed err=");
    expect(stack[0]).toMatch(/^ {4}Error: price 0\.555 is off the 0\.01 tick$/);
    expect(stack[1]).toMatch(/^ {8}at /);
  });

  it("prints no secret: registered values and redacted paths stay hidden in messages, fields and errors", () => {
    const { log, lines } = terminal([API_KEY, API_SECRET, PRIVATE_KEY]);
    log.info({ apiKey: API_KEY, privateKey: PRIVATE_KEY }, "keys");
    log.warn(
      { url: `wss://x/ws?key=${API_KEY}`, blob: { k: PRIVATE_KEY.slice(2).toUpperCase() } },
      `hello ${API_SECRET}`,
    );
    log.error({ err: new Error(`bad ${API_SECRET}`), req: { headers: { "x-api-key": API_KEY } } }, "failed");
    const text = lines().join("\n");
    for (const s of [
      API_KEY,
      API_SECRET,
      PRIVATE_KEY,
      PRIVATE_KEY.slice(2),
      PRIVATE_KEY.slice(2).toUpperCase(),
    ]) {
      expect(text).not.toContain(s);
    }
    expect(text).toContain("apiKey=[REDACTED] privateKey=[REDACTED]");
    expect(text).toContain('url="wss://x/ws?key=[REDACTED]"');
  });

  it("starts a line without a message with its fields", () => {
    const { log, lines } = terminal();
    log.info({ tokens: 3 });
    expect(lines()[0]).toMatch(/INFO: tokens=3$/);
  });

  it("quotes values that would read as more than one pair and removes terminal control characters", () => {
    const { log, lines } = terminal();
    log.info({ note: "a b=c", evil: "x\u001b[2Jy", empty: "" }, "odd\u001b[31m values");
    const line = lines()[0] ?? "";
    expect(line).toContain('odd[31m values note="a b=c" evil="x\\u001b[2Jy" empty=""');
    expect(line).not.toContain("\u001b");
  });
});

describe("prettyFields", () => {
  it("shows nothing for a line without fields", () => {
    expect(prettyFields({ level: 30, time: 1, msg: "hello", cmd: "paper" })).toBe("");
  });
  it("shifts scaled integers exactly and keeps the raw key when the short one is taken", () => {
    expect(prettyFields({ pnlMicro: "-5", feesPico: 1_500_000_000_000, positionMicro: "0" })).toBe(
      " pnl=-0.000005 fees=1.5 position=0",
    );
    expect(prettyFields({ price: "0.56", priceMicro: 560_000 })).toBe(" price=0.56 priceMicro=560000");
    expect(prettyFields({ sizeMicro: "1.5" })).toBe(" sizeMicro=1.5");
  });
  it("shows a scaled value the message names with another value", () => {
    expect(
      prettyFields({
        msg: "fill (position -10, PnL +0.15 USDC)",
        positionMicro: "-10000000",
        pnlMicro: 150_000,
      }),
    ).toBe("");
    expect(prettyFields({ msg: "status: PnL +0.155 USDC", pnlMicro: 150_000 })).toBe(" pnl=0.15");
    expect(prettyFields({ msg: "fees settled", pnlMicro: 150_000 })).toBe(" pnl=0.15");
  });
  it("lists token ids shortened and counts, never cuts, what does not fit", () => {
    const ids = Array.from({ length: 20 }, (_, i) => `${i + 10}${"7".repeat(70)}${i + 10}`);
    const out = prettyFields({ tokens: ids });
    expect(out.startsWith(" tokens=[107777…777710,117777…777711,")).toBe(true);
    expect(out).toMatch(/,\+\d+ more\]$/);
    expect(out.length).toBeLessThan(200);
    const obj = prettyFields({ snapshot: { a: ids[0], b: "x".repeat(150), c: 1 } });
    expect(obj).toBe(' snapshot={"a":"107777…777710",…');
  });
  it("keeps short decimal ids, UUIDs and addresses whole; cuts long values", () => {
    expect(
      prettyFields({ tokenId: "1234567890123456789", wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }),
    ).toBe(" tokenId=1234567890123456789 wallet=0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    const long = prettyFields({ detail: "y".repeat(500) });
    expect(long.length).toBeLessThan(200);
    expect(long.endsWith("…")).toBe(true);
    expect(prettyFields({ ids: ["a", "b,c"], n: 3, ok: true, none: null })).toBe(
      ' ids=[a,"b,c"] n=3 ok=true none=null',
    );
  });
});

describe("JSON lines (not a terminal)", () => {
  it("stay as they were: the fields in pino's order, no pretty rendering", () => {
    const out = collector();
    const log = createLogger({
      level: "info",
      pretty: false,
      base: { cmd: "paper" },
      destination: out.stream,
    });
    log
      .child({ component: "engine" })
      .info({ reason: "market_not_open", tokenId: TOKEN, marketId: MARKET }, "risk: x");
    const [line] = out.lines();
    expect(line?.replace(/"time":"[^"]+"/, '"time":"T"')).toBe(
      `{"level":30,"time":"T","cmd":"paper","component":"engine","reason":"market_not_open","tokenId":"${TOKEN}","marketId":"${MARKET}","msg":"risk: x"}`,
    );
  });
});
