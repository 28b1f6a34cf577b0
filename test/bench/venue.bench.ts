import { SimClock } from "../../src/core/sim-clock.js";
import type { Address } from "../../src/core/types.js";
import { seededVenueIds } from "../../src/venue/ids.js";
import { SimVenue } from "../../src/venue/sim-venue.js";
import { wireBookDelta, wireTradeMatched, wireUserFill } from "../../src/venue/wire.js";
import type { BenchCase } from "./harness.js";

export const title = "SimVenue matching engine (in process, one core)";

const MAKER = "0x00000000000000000000000000000000000000aa" as Address;
const TAKER = "0x00000000000000000000000000000000000000bb" as Address;
const YES = "1001";

function venue(withWireListener = false): SimVenue {
  const v = new SimVenue({ clock: new SimClock(1_700_000_000_000), ids: seededVenueIds(1), makerFeeBps: 0 });
  v.registerMarket({
    marketId: "m",
    conditionId: `0x${"1".repeat(64)}`,
    outcomes: [
      { label: "YES", tokenId: YES },
      { label: "NO", tokenId: "1002" },
    ],
    tickSize: 10_000n,
    feeTakerBps: 200,
    status: "OPEN",
    negRisk: false,
  });
  for (const w of [MAKER, TAKER]) {
    v.credit(w, "usdc", 10n ** 15n);
    v.credit(w, YES, 10n ** 15n);
  }
  if (withWireListener) {
    // What the mock's WebSocket layer does per event: format it once for its subscribers.
    v.subscribe((e) => {
      if (e.type === "book_changes") wireBookDelta(e);
      else if (e.type === "trade") wireTradeMatched(e);
      else if (e.type === "fill") wireUserFill(e);
    });
  }
  return v;
}

const limit = (wallet: Address, side: "buy" | "sell", cents: number, qty: bigint) => ({
  wallet,
  marketId: "m",
  outcome: "YES",
  side,
  price: BigInt(cents) * 10_000n,
  quantity: qty,
});

export function benches(): BenchCase[] {
  const rest = venue();
  let i = 0;
  const crossing = venue();
  const wired = venue(true);
  const sweep = venue();
  return [
    {
      name: "place GTC that rests + cancel it (per pair)",
      baseline: true,
      batch: 10_000,
      setup: () => {
        // A standing book of 40 levels × 5 orders so inserts land among existing levels.
        for (let c = 10; c < 50; c++)
          for (let k = 0; k < 5; k++) rest.place(limit(MAKER, "buy", c, 1_000_000n));
      },
      run: (n) => {
        for (let k = 0; k < n; k++) {
          const r = rest.place(limit(TAKER, "buy", 10 + (i++ % 40), 2_000_000n));
          rest.cancel(TAKER, r.orderId);
        }
      },
    },
    {
      name: "maker rests, taker fills it (one trade per pair)",
      batch: 10_000,
      run: (n) => {
        for (let k = 0; k < n; k++) {
          crossing.place(limit(MAKER, "sell", 55, 3_000_000n));
          crossing.place(limit(TAKER, "buy", 60, 3_000_000n));
        }
      },
    },
    {
      name: "same, with a listener formatting WS payloads",
      batch: 10_000,
      run: (n) => {
        for (let k = 0; k < n; k++) {
          wired.place(limit(MAKER, "sell", 55, 3_000_000n));
          wired.place(limit(TAKER, "buy", 60, 3_000_000n));
        }
      },
    },
    {
      name: "IOC sweeping 5 levels (5 makers + 1 taker)",
      batch: 2_000,
      run: (n) => {
        for (let k = 0; k < n; k++) {
          for (let c = 51; c <= 55; c++) sweep.place(limit(MAKER, "sell", c, 1_000_000n));
          sweep.place({ ...limit(TAKER, "buy", 60, 5_000_000n), timeInForce: "ioc" });
        }
      },
    },
  ];
}
