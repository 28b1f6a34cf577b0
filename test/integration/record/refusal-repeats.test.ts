import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { record } from "../../../src/gateway/record/recorder.js";
import { until } from "../gateway/harness.js";
import { politeAnswer, RawServer } from "../gateway/raw-server.js";

let server: RawServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

describe("mm record: a subscription refused again and again", () => {
  it("lists the first refusal of a retried run, not every retry (the list would grow for days)", async () => {
    const polite = politeAnswer();
    const srv = await new RawServer((c, conn) => {
      if (c.cmd !== "subscribe") return polite(c, conn);
      const subs = (c.params?.subscriptions ?? []) as { channel: string; ids?: string[] }[];
      return {
        type: "subscribed",
        accepted: [],
        rejected: subs.map((s) => ({
          channel: s.channel,
          ids: s.ids ?? [],
          code: "internal_error",
          message: "x",
        })),
      };
    }).listen();
    server = srv;
    dir = mkdtempSync(join(tmpdir(), "mm-record-refusals-"));
    const clock = new SimClock(1_700_000_000_000);
    const abort = new AbortController();
    const run = record({
      url: srv.url,
      apiKey: "k",
      tokens: ["111"],
      channels: ["token_book"],
      outDir: dir,
      rotate: { maxBytes: 1 << 30, maxAgeMs: 3_600_000 },
      signal: abort.signal,
      clock,
      random: () => 1,
      timing: {
        pingIntervalMs: 600_000,
        silenceTimeoutMs: 1_200_000,
        backoff: { baseMs: 500, maxMs: 2_000 },
      },
    });
    const subscribes = () => srv.received.filter((c) => c.cmd === "subscribe").length;
    await until(() => subscribes() >= 6, "six refused subscribes", { clock, advanceMs: 250 });
    abort.abort();
    const summary = await run;
    expect(summary.rejected).toHaveLength(1);
    expect(summary.rejected[0]).toMatchObject({ channel: "token_book", code: "internal_error", attempt: 1 });
  });
});
