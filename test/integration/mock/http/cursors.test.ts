import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockHarness, WALLET } from "./harness.js";

/** Conventions 7 and the history read: opaque keyset cursors over (createdAt, id). */

let h: MockHarness;
beforeAll(async () => {
  h = await MockHarness.start();
});
afterAll(() => h.close());

describe("Conventions: keyset cursors over (createdAt, id)", () => {
  const page = (query: string) => h.fetch(`/api/orders/history?${query}`, { key: h.keys.trader });

  it("pages cover the history exactly once, newest first; nextCursor is null on the last page", async () => {
    const m = h.market("PENALTIES");
    for (let i = 0; i < 30; i++) {
      if (i % 7 === 0) h.clock.advanceBy(1_000);
      h.ctx.venue.place({
        wallet: WALLET.mm,
        marketId: m.id,
        outcome: "NO",
        side: "buy",
        price: 1_000n,
        quantity: 1_000_000n,
      });
    }
    const all = ((await page("limit=200")).body.orders as { id: string; createdAt: string }[]).map(
      (o) => o.id,
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Awaited<ReturnType<typeof page>> = await page(
        `limit=7${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      seen.push(...(res.body.orders as { id: string }[]).map((o) => o.id));
      cursor = res.body.nextCursor as string | null;
    } while (cursor !== null);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("offset and page are ignored; later inserts do not shift a later page", async () => {
    const first = await page("limit=5");
    expect((await page("limit=5&offset=10&page=3")).body).toEqual(first.body);
    const cursor = first.body.nextCursor as string;
    const before = await page(`limit=5&cursor=${encodeURIComponent(cursor)}`);
    h.clock.advanceBy(1_000);
    const m = h.market("PENALTIES");
    h.ctx.venue.place({
      wallet: WALLET.mm,
      marketId: m.id,
      outcome: "NO",
      side: "buy",
      price: 1_000n,
      quantity: 1_000_000n,
    });
    const after = await page(`limit=5&cursor=${encodeURIComponent(cursor)}`);
    expect(after.body.orders).toEqual(before.body.orders);
  });

  it("a tampered cursor, or one from another wallet or list, is 400 bad_request", async () => {
    const cursor = (await page("limit=2")).body.nextCursor as string;
    const tampered = `${cursor.slice(0, 5)}${cursor[5] === "A" ? "B" : "A"}${cursor.slice(6)}`;
    for (const c of [tampered, "not-a-cursor", `${cursor}x`]) {
      const res = await page(`cursor=${encodeURIComponent(c)}`);
      expect(res.status, c).toBe(400);
      expect(res.body.code).toBe("bad_request");
    }
    const otherWallet = await h.fetch(`/api/orders/history?cursor=${encodeURIComponent(cursor)}`, {
      key: h.keys.multiKyc,
      wallet: WALLET.kyc,
    });
    expect(otherWallet.status).toBe(400);
    expect(
      (await h.fetch(`/api/me/trades?cursor=${encodeURIComponent(cursor)}`, { key: h.keys.trader })).status,
    ).toBe(400);
  });
});
