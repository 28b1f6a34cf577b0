import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createRecordCommand } from "../../../src/cli/record.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { until } from "../gateway/harness.js";
import { ackingSnapshots, RawServer, runClock } from "../gateway/raw-server.js";

/*
 * review21-rsubaudit: exchange.wsSubscriptionCheckMs ("each WebSocket connection's subscriptions
 * are checked… 0 (off…)") is read by the daemon only. `mm record` loads the same config but builds
 * its GatewayClient without that timing (src/cli/record.ts → record() `timing` never set), so it
 * checks every 60 s whatever the operator set: 0 (say, against an exchange whose list is wrong, to
 * spare the recording a resubscribe of every book) is silently ignored, and so is a longer period.
 */

const root = mkdtempSync(join(tmpdir(), "mm-review-rsub-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("review: mm record and exchange.wsSubscriptionCheckMs", () => {
  it("0 in the config: mm record never sends list_subscriptions", async () => {
    const srv = await new RawServer(ackingSnapshots()).listen();
    const clock = new SimClock(1_000_000);
    const err: string[] = [];
    const out: string[] = [];
    const io = {
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => err.push(t),
      env: {
        MM_API_KEY: "mm_test_0123456789abcdef_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        MM_EXCHANGE_WS_URL: srv.url,
        MM_EXCHANGE_BASE_URL: "http://127.0.0.1:9",
        MM_EXCHANGE_WS_SUBSCRIPTION_CHECK_MS: "0",
        MM_LOG_LEVEL: "fatal",
      },
      cwd: root,
    };
    const ac = new AbortController();
    const running = createRecordCommand({ signal: ac.signal, clock }).run(
      ["--tokens", "111", "--out", "rec", "--channels", "token_book"],
      io,
    );
    try {
      await until(
        () => err.some((l) => l.includes("recording")) || out.length > 0,
        "the recorder to subscribe",
      );
      expect(srv.commands("subscribe")).toHaveLength(1);
      await runClock(clock, 180_000, 5_000);
      expect(srv.commands("list_subscriptions")).toEqual([]);
    } finally {
      ac.abort();
      await running;
      await srv.close();
    }
  });
});
