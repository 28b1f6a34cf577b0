import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { FixedWindowLimiter } from "../../../src/mock/rate-limiter.js";

const who = { ip: "127.0.0.1", wallet: "0xabc", rateLimitPerMin: 600 };

describe("FixedWindowLimiter", () => {
  it("allows 50 placements per wallet per second, refuses the 51st with Retry-After to the window end", () => {
    const clock = new SimClock(10_250);
    const lim = new FixedWindowLimiter(clock);
    for (let i = 0; i < 50; i++) expect(lim.check("POST", "/api/orders/place", who).allowed).toBe(true);
    const refused = lim.check("POST", "/api/orders/place", who);
    expect(refused).toMatchObject({ allowed: false, limit: 50, remaining: 0, resetSeconds: 1 });
    clock.advanceTo(11_000); // the next fixed window
    expect(lim.check("POST", "/api/orders/place", who)).toMatchObject({ allowed: true, remaining: 49 });
  });

  it("scales wallet limits by rateLimitPerMin / 600 and keeps wallets apart", () => {
    const lim = new FixedWindowLimiter(new SimClock(0));
    const slow = { ...who, rateLimitPerMin: 60 }; // 0.1× → 5 placements/s
    for (let i = 0; i < 5; i++) expect(lim.check("POST", "/api/orders/place", slow).allowed).toBe(true);
    expect(lim.check("POST", "/api/orders/place", slow).allowed).toBe(false);
    expect(lim.check("POST", "/api/orders/place", { ...slow, wallet: "0xdef" }).allowed).toBe(true);
  });

  it("applies the IP bucket across wallets and reports the tightest bucket", () => {
    const clock = new SimClock(0);
    const lim = new FixedWindowLimiter(clock);
    let last = lim.check("POST", "/api/orders/place", who);
    expect(last).toMatchObject({ limit: 50, remaining: 49 }); // wallet bucket is tighter than ip 1000/60 s
    for (let i = 1; i < 1000; i++) {
      clock.advanceTo(Math.floor(i / 40) * 1000); // stay under 50/s per wallet
      last = lim.check("POST", "/api/orders/place", { ...who, wallet: `0x${i % 3}` });
      expect(last.allowed).toBe(true);
    }
    clock.advanceTo(30_000);
    const refused = lim.check("POST", "/api/orders/place", { ...who, wallet: "0xnew" });
    expect(refused).toMatchObject({ allowed: false, limit: 1000, remaining: 0, resetSeconds: 30 });
  });

  it("a refused request consumes nothing; endpoints without a rule are unlimited", () => {
    const lim = new FixedWindowLimiter(new SimClock(0));
    for (let i = 0; i < 5; i++) lim.check("POST", "/api/orders/cancel-all", who);
    for (let i = 0; i < 10; i++) expect(lim.check("POST", "/api/orders/cancel-all", who).allowed).toBe(false);
    expect(lim.check("GET", "/api/tags", who)).toEqual({ allowed: true });
  });
});
