import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import { toWei } from "../../../src/core/wei.js";
import { mulberry32 } from "../../support/mulberry32.js";
import { BOT, Harness } from "./support/harness.js";
import { answerLost } from "./support/reconcile-faults.js";

/** mm's orders and holdings beside the venue's. */
async function truth(h: Harness) {
  const venueOpen = h.venue
    .openOrders(BOT)
    .map((o) => o.id)
    .sort();
  const mmLive = h.engine
    .liveOrders()
    .map((o) => `${o.orderId ?? `?${o.clientOrderId}`}:${o.state}`)
    .sort();
  const pos = await h.exchange.positions();
  const held: string[] = [];
  for (const m of h.markets) {
    const v = pos.find((p) => p.tokenId === m.tokenId)?.quantity ?? "0";
    held.push(`${m.tokenId}:${h.engine.heldOf(m.tokenId)}:${toWei(v, "quantity")}`);
  }
  return { venueOpen, mmLive, held };
}

/** One seeded run: 40 random steps, then a calm 150 s (several reconciles, drift settle). */
async function scenario(seed: number) {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const h = new Harness({ markets: 2 });
  const toks = [...h.tokens(1), ...h.tokens(2)];
  for (const t of toks) h.crowdQuote(t, "0.48", "0.52");
  await h.engine.start();
  await h.run(100);
  const onFill = h.engine.onFill.bind(h.engine);
  let stripCid = false;
  const held: Fill[] = [];
  let holdFills = false;
  const delivered: Fill[] = [];
  h.engine.onFill = (f: Fill) => {
    const g = stripCid ? { ...f, clientOrderId: undefined } : f;
    if (holdFills) {
      held.push(g);
      return;
    }
    delivered.push(g);
    onFill(g);
  };
  const cancel = h.exchange.cancel.bind(h.exchange);
  let loseCancel = 0;
  h.exchange.cancel = async (id) => {
    if (loseCancel > 0) {
      loseCancel--;
      await cancel(id);
      throw answerLost("POST /api/orders/cancel");
    }
    return cancel(id);
  };
  for (let step = 0; step < 40; step++) {
    const a = Math.floor(rnd() * 12);
    const t = pick(toks);
    switch (a) {
      case 0:
      case 1:
        h.take(t, "sell", pick(["0.45", "0.44", "0.40"]), pick(["101", "103", "105", "112", "130"]));
        break;
      case 2:
      case 3:
        h.take(t, "buy", pick(["0.55", "0.56", "0.60"]), pick(["101", "103", "105", "112", "130"]));
        break;
      case 4: {
        const mid = pick([0.46, 0.48, 0.5, 0.52]);
        h.crowdQuote(t, (mid - 0.02).toFixed(2), (mid + 0.02).toFixed(2));
        break;
      }
      case 5:
        h.dropFills = !h.dropFills;
        if (!h.dropFills) h.engine.onReconnect();
        break;
      case 6:
        if (delivered.length > 0) onFill({ ...pick(delivered) });
        break;
      case 7:
        stripCid = !stripCid;
        break;
      case 8:
        h.exchange.scriptPlace(
          pick([{ kind: "ambiguous_after" }, { kind: "ambiguous_before" }, { kind: "pass" }] as const),
        );
        break;
      case 9:
        loseCancel++;
        break;
      case 10: {
        const live = h.engine.liveOrders();
        if (live.length > 0) h.exchange.unlisted.add(pick(live).clientOrderId);
        break;
      }
      case 11:
        holdFills = !holdFills;
        if (!holdFills) {
          const xs = held.splice(0).reverse();
          for (const f of xs) {
            delivered.push(f);
            onFill(f);
            onFill({ ...f });
          }
        }
        break;
    }
    await h.run(Math.floor(rnd() * 3000));
  }
  // Calm: everything delivered, nothing lost from here on.
  h.dropFills = false;
  holdFills = false;
  for (const f of held.splice(0)) onFill(f);
  h.exchange.unlisted.clear();
  loseCancel = 0;
  for (const t of toks) h.crowdQuote(t, "0.48", "0.52");
  await h.run(150_000);
  return { t: await truth(h), h };
}

/*
 * The engine against the venue through spec-legal but unusual sequences, seeded: user_fills lost
 * (a disconnect, then a reconnect), duplicated, held back and delivered late in reverse, stripped of
 * their clientOrderId; placements whose answer is lost after or before reaching the matcher;
 * cancels whose answer is lost after the exchange acted; the open-orders list and history lagging
 * behind a live order. After a calm spell (everything delivered, nothing lost) mm holds exactly the
 * orders resting on the venue, all open, and the venue's positions.
 */
describe("engine convergence under lost, repeated and reordered events", () => {
  for (let seed = 1; seed <= 24; seed++) {
    it(`seed ${seed}`, async () => {
      const { t } = await scenario(seed);
      const live = t.mmLive
        .filter((s) => s.endsWith(":open") || s.endsWith(":cancelling"))
        .map((s) => s.split(":")[0])
        .sort();
      const bad = t.held.filter((s) => {
        const [, a, b] = s.split(":");
        return a !== b;
      });
      expect(bad).toEqual([]);
      expect(t.mmLive.filter((s) => !s.endsWith(":open"))).toEqual([]);
      expect(live).toEqual(t.venueOpen);
    });
  }
});
