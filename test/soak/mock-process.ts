/**
 * The soak's mock exchange, in a child process of its own (forked by mock-child.ts), so the bot's
 * RSS and event loop are the bot's alone. The default scenario with `markets` generated markets
 * (manyMarkets) and the flow simulator on: fair values walk, background liquidity is re-laid every
 * step and Poisson takers trade against the whole book, the bot's quotes included.
 * IPC: → {type:"ready", http, ws} once listening; ← {type:"stats"} → {type:"stats", …};
 * ← {type:"close"} → {type:"closed"}, then exits. A lost parent ends it too.
 */
import { createMockExchange } from "../../src/mock/mock-exchange.js";
import { manyMarkets } from "../integration/daemon/many-markets.js";
import { WALLET } from "../integration/daemon/support.js";

/** What the mock reports about itself. */
export interface MockStats {
  readonly type: "stats";
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  /** The paper wallet's open orders, in the mock's own view. */
  readonly openOrders: number;
}

async function main(): Promise<void> {
  const send = (msg: unknown) => process.send?.(msg);
  const markets = Number(process.argv[2] ?? "100");
  const base = manyMarkets(markets);
  const scenario = { ...base, flow: { ...base.flow, enabled: true } };
  const mock = await createMockExchange({ scenario, flow: true });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= mock.close().catch(() => undefined);
    return closing;
  };
  process.on("disconnect", () => void close().finally(() => process.exit(0)));
  process.on("message", (msg: { type?: string }) => {
    if (msg.type === "stats") {
      const m = process.memoryUsage();
      const stats: MockStats = {
        type: "stats",
        rssBytes: m.rss,
        heapUsedBytes: m.heapUsed,
        openOrders: mock.context.venue.openOrders(WALLET).length,
      };
      send(stats);
    } else if (msg.type === "close") {
      void close().then(() => process.send?.({ type: "closed" }, () => process.exit(0)));
    }
  });
  send({ type: "ready", http: mock.httpUrl, ws: mock.wsUrl });
}

main().catch((err: unknown) => {
  process.stderr.write(`soak mock failed: ${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
