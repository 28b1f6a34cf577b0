import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { Feeds } from "../../../src/app/feeds.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Engine } from "../../../src/engine/engine-api.js";
import type { ReconcileReason } from "../../../src/engine/engine-events.js";
import { ReconcileScheduler } from "../../../src/engine/engine-reconcile.js";
import { NO_MARKETS } from "../gateway/feeds-rig.js";
import { until } from "../gateway/harness.js";
import { type Answer, politeAnswer, RawServer, runClock } from "../gateway/raw-server.js";

/*
 * After a /ws/user reconnect the engine reconciles (REST backfill) as the link comes up, while the
 * user_fills resubscribe is still on its way. A fill matched after that reconcile read REST and
 * before the server took the subscription is pushed by neither: it reached the engine only at the
 * next periodic reconcile (a minute later by default). Feeds now asks for one more reconcile once
 * user_fills is accepted again. Found by the gateway review (question 4).
 */

const INTERVAL_MS = 60_000;

/**
 * The engine as Feeds sees it, reconciling as the real one does: the real ReconcileScheduler
 * (debounced triggers, a periodic run), each run reading the venue's fills "over REST" at once.
 */
class BackfillingEngine {
  /** Trade ids the venue has matched (what a REST read of the trades returns). */
  readonly venue: string[] = [];
  /** Trade ids the engine knows. */
  readonly known = new Set<string>();
  readonly runs: { reason: ReconcileReason; at: number }[] = [];
  readonly scheduler: ReconcileScheduler;

  constructor(clock: SimClock) {
    this.scheduler = new ReconcileScheduler(
      clock,
      { intervalMs: INTERVAL_MS, debounceMs: 250, retryMs: 1_000 },
      async (reason) => {
        this.runs.push({ reason, at: clock.now() });
        for (const t of this.venue) this.known.add(t);
        return { pending: 0 };
      },
      () => undefined,
    );
  }
  onReconnect(): void {
    this.scheduler.soon("reconnect");
  }
  onFill(): void {}
  onBook(): void {}
  onBookState(): void {}
  onMarketStatus(): void {}
  onPlatformStatus(): void {}
}

let server: RawServer | undefined;
let feeds: Feeds | undefined;
afterEach(async () => {
  await feeds?.close();
  await server?.close();
  feeds = undefined;
  server = undefined;
});

const run = (clock: SimClock, ms: number): Promise<void> => runClock(clock, ms, 50, 2);

describe("Feeds: a /ws/user reconnect", () => {
  it("reconciles again once user_fills is accepted: a fill matched before the resubscribe is taken is applied before the next periodic reconcile", async () => {
    const polite = politeAnswer();
    let release: (() => void) | undefined;
    const answer: Answer = (c, conn) => {
      const subs = (c.params?.subscriptions ?? []) as { channel: string }[];
      // On the reconnected /ws/user socket (conns 0 and 1 are the first user and market ones), the
      // server takes user_fills only when the test says.
      if (c.cmd === "subscribe" && conn.n >= 2 && subs[0]?.channel === "user_fills") {
        const reply = polite(c, conn);
        release = () => conn.send({ id: c.id, ...reply });
        return undefined;
      }
      return polite(c, conn);
    };
    server = await new RawServer(answer).listen();
    const clock = new SimClock(1_000_000);
    const engine = new BackfillingEngine(clock);
    feeds = new Feeds({
      wsUrl: server.url,
      apiKey: { reveal: () => "k" },
      userWallet: undefined,
      clock,
      logger: pino({ level: "silent" }),
      markets: NO_MARKETS,
      engine: engine as unknown as Engine,
      onFatal: () => {},
    });
    await feeds.start();
    engine.scheduler.start();
    const start = clock.now();
    let fillsAccepted = 0;
    feeds.user.onAccepted((channel) => {
      if (channel === "user_fills") fillsAccepted++;
    });

    server.conns[0]?.ws.terminate(); // /ws/user connects first
    for (let i = 0; i < 100 && release === undefined; i++) await run(clock, 100);
    expect(release).toBeDefined();
    await run(clock, 500); // the link-up reconcile runs: the venue has nothing new yet
    expect(engine.runs.map((r) => r.reason)).toEqual(["reconnect"]);

    engine.venue.push("t1"); // matched now: user_fills is not held by the server, nothing is pushed
    release?.();
    await until(() => fillsAccepted === 1, "user_fills accepted");
    await run(clock, 500);
    expect(engine.known.has("t1")).toBe(true);
    expect(clock.now() - start).toBeLessThan(INTERVAL_MS);
    expect(engine.runs.map((r) => r.reason)).toEqual(["reconnect", "reconnect"]);
    engine.scheduler.stop();
  });
});
