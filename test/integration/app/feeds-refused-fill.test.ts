import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { Feeds } from "../../../src/app/feeds.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Fill } from "../../../src/core/trading.js";
import type { Engine } from "../../../src/engine/engine-api.js";
import { NO_MARKETS } from "../gateway/feeds-rig.js";
import { politeAnswer, RawServer } from "../gateway/raw-server.js";

/*
 * A user_fill the gateway's parser refuses is a fill that happened but cannot be read: the daemon
 * reconciles at once (the REST backfill brings it in exactly) instead of waiting for the periodic
 * reconcile. Found by the market-data review (question 3).
 */

let server: RawServer | undefined;
let feeds: Feeds | undefined;
afterEach(async () => {
  await feeds?.close();
  await server?.close();
  feeds = undefined;
  server = undefined;
});

/** The engine as Feeds sees it: what it was told. */
class RecordingEngine {
  reconciles = 0;
  readonly fills: Fill[] = [];
  onReconnect(): void {
    this.reconciles++;
  }
  onFill(f: Fill): void {
    this.fills.push(f);
  }
  onBook(): void {}
  onBookState(): void {}
  onMarketStatus(): void {}
  onPlatformStatus(): void {}
}

async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("Feeds: an unreadable user_fill", () => {
  it("makes the engine reconcile at once; a frame on another channel does not", async () => {
    const srv = await new RawServer(politeAnswer()).listen();
    server = srv;
    const engine = new RecordingEngine();
    feeds = new Feeds({
      wsUrl: srv.url,
      apiKey: { reveal: () => "k" },
      userWallet: undefined,
      clock: new SimClock(1_000_000),
      logger: pino({ level: "silent" }),
      markets: NO_MARKETS,
      engine: engine as unknown as Engine,
      onFatal: () => {},
    });
    await feeds.start();
    const refused: string[] = [];
    feeds.user.onRefused((r) => refused.push(`${r.channel} ${r.type}`));
    const user = srv.conns[0]; // /ws/user connects first
    expect(user).toBeDefined();
    // A refused user_orders event is only logged: those events are informational.
    user?.send({ type: "order_placed", sid: 2, channel: "user_orders", data: 5 });
    user?.send({ type: "user_fill", sid: 1, channel: "user_fills", data: { side: "BUY" } });
    await until(() => refused.length === 2, "both refusals");
    expect(refused).toEqual(["user_orders order_placed", "user_fills user_fill"]);
    expect(engine.reconciles).toBe(1);
    expect(engine.fills).toEqual([]);
  });
});
