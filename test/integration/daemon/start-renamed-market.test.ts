import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { ConfigError } from "../../../src/config/errors.js";
import { sendJson } from "../../support/http-test-server.js";
import { journaledRename } from "./journaled-rename.js";
import { type FrontOverride, frontedMocks } from "./rest-front.js";
import {
  daemonConfig,
  daemonSlots,
  logged,
  market,
  memoryLogger,
  startFailure,
  startMock,
  tempJournals,
} from "./support.js";

/*
 * A market retitled while mm traded it takes its new slug (the open-market sweep's list shows it by
 * its id under it) and the journal keeps it (`market_slug`). A restart whose engine.markets still
 * named the old slug, a 404 now, exited 2 on a market mm was trading. Now the journal's word finds
 * it: quoted under its slug now, warned (both slugs, and that the config should be updated).
 * Without a journal entry it is still a config error; a config naming the new slug just starts.
 */

const ARG = market("arg-vs-fra-final-arg-win");
const OLD_SLUG = "argentina-vs-france-final-argentina-wins";
const slots = daemonSlots();
const newJournal = tempJournals("mm-start-renamed-");

describe("daemon: engine.markets names a slug its market has left", () => {
  it("the journal knows the market's new slug: it starts, quoting the market under it, and warns", async () => {
    const m = await startMock();
    slots.mock = m;
    const journal = journaledRename(newJournal(), m, ARG, { from: OLD_SLUG, to: ARG.slug });
    const { logger, sink } = memoryLogger();
    const d = await startDaemon(daemonConfig(m, [OLD_SLUG]), { logger, journal });
    slots.daemon = d;
    expect(d.markets.slugs).toEqual([ARG.slug]);
    expect(new Set(d.markets.tokens.map((t) => t.marketId))).toEqual(new Set([ARG.id]));
    const warned = sink
      .records()
      .filter((r) => String(r.msg).startsWith(`engine.markets names "${OLD_SLUG}"`));
    expect(warned).toHaveLength(1);
    expect(String(warned[0]?.msg)).toContain(`update engine.markets`);
    expect(String(warned[0]?.msg)).toContain(`"${ARG.slug}"`);
    expect(warned[0]?.level).toBe(40);
  });

  it("no journal entry: a config error (exit 2), as before", async () => {
    const m = await startMock();
    slots.mock = m;
    const err = await startFailure(daemonConfig(m, [OLD_SLUG]));
    expect(err).toBeInstanceOf(ConfigError);
  });

  it("a config naming the new slug: starts as usual, the stale entry not in the way", async () => {
    const m = await startMock();
    slots.mock = m;
    const journal = journaledRename(newJournal(), m, ARG, { from: OLD_SLUG, to: ARG.slug });
    const { logger, sink } = memoryLogger();
    const d = await startDaemon(daemonConfig(m, [ARG.slug]), { logger, journal });
    slots.daemon = d;
    expect(d.markets.slugs).toEqual([ARG.slug]);
    expect(sink.records().filter((r) => String(r.msg).startsWith("engine.markets names"))).toEqual([]);
    // The slug the market left is known to the sweep: a stale list showing it is not taken back.
    expect(d.journal?.restore.slugsLeft).toEqual(new Map([[ARG.id, [OLD_SLUG]]]));
  });
});

const fronted = frontedMocks();
const RETITLED = "argentina-win-the-final";

/**
 * The front's exchange once `state.renamed`: ARG listed under RETITLED, its record found by it, its
 * old slug a 404 (the mock's own answer for a slug it does not know).
 */
function renaming(state: { renamed: boolean }, mockUrl: () => string): FrontOverride {
  const relay = async (res: ServerResponse, path: string, rewrite: (body: unknown) => unknown) => {
    const answer = await fetch(`${mockUrl()}${path}`);
    const body: unknown = await answer.json();
    sendJson(res, answer.status, answer.ok ? rewrite(body) : body);
  };
  const retitled = (m: Record<string, unknown>) => (m.id === ARG.id ? { ...m, slug: RETITLED } : m);
  return (req, res) => {
    if (!state.renamed || req.method !== "GET") return false;
    if (req.path === "/api/markets") {
      void relay(res, req.url, (body) => {
        const { markets } = body as { markets: Record<string, unknown>[] };
        return { ...(body as object), markets: markets.map(retitled) };
      });
      return true;
    }
    if (req.path === `/api/markets/${RETITLED}`) {
      void relay(res, `/api/markets/${ARG.slug}`, (body) => retitled(body as Record<string, unknown>));
      return true;
    }
    if (req.path === `/api/markets/${ARG.slug}`) {
      void relay(res, "/api/markets/no-such-market", (body) => body);
      return true;
    }
    return false;
  };
}

describe("daemon: a market retitled while running, then a restart on the old slug", () => {
  it("the run journals the new slug; the restart finds the market by it (it exited 2)", async () => {
    const state = { renamed: false };
    let mockUrl = "";
    const { m, url } = await fronted(renaming(state, () => mockUrl));
    mockUrl = m.httpUrl;
    slots.mock = undefined; // the fronted mock is closed by its own hook
    const journal = newJournal();
    const config = daemonConfig(m, [ARG.slug], {
      MM_EXCHANGE_BASE_URL: url,
      MM_ENGINE_MARKET_RECHECK_MS: "1000",
    });
    const first = memoryLogger();
    const d = await startDaemon(config, { logger: first.logger, journal });
    slots.daemon = d;
    state.renamed = true; // retitled: the next list shows it under RETITLED
    await logged(first.sink, "the market list shows the market by its id under a new slug");
    await d.stop("test over");
    slots.daemon = undefined;

    // engine.markets still names the old slug, a 404 now.
    const again = memoryLogger();
    const d2 = await startDaemon(config, { logger: again.logger, journal });
    slots.daemon = d2;
    expect(d2.markets.slugs).toEqual([RETITLED]);
    expect(
      again.sink.records().some((r) => String(r.msg).startsWith(`engine.markets names "${ARG.slug}"`)),
    ).toBe(true);
    await d2.stop("test over");
    slots.daemon = undefined;
  });
});
