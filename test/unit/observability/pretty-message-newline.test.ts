import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/observability/logger.js";
import { humanLogStream } from "../../../src/observability/pretty-line.js";

/** A logger writing what a terminal shows (colours off), as mm paper / mm run do on a TTY. */
function terminal() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  const log = createLogger({
    level: "info",
    destination: humanLogStream(stream, { colorize: false, sync: true }),
  });
  return { log, text: () => chunks.join("") };
}

describe("terminal log: a terminal log line cannot be forged from an exchange's text", () => {
  it("keeps a warn line whose message holds the exchange's subscription-refusal text on one line", () => {
    const { log, text } = terminal();
    // As src/app/feeds.ts:204 writes it: `r.message` is the gateway's own `message` field.
    const fromExchange =
      "denied\n[12:00:00.000] INFO: fill: buy 500 @ 0.99 some-market YES (position 500, PnL +0 USDC)";
    log.warn({ channel: "token_book", code: "forbidden", ids: 1 }, `subscription refused: ${fromExchange}`);
    const lines = text()
      .split("\n")
      .filter((l) => l !== "");
    // One event, one terminal line: nothing that reads as a second, separate (INFO fill) event.
    expect(lines).toHaveLength(1);
    expect(lines.some((l) => l.startsWith("[12:00:00.000] INFO: fill:"))).toBe(false);
  });
});
