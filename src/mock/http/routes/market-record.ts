import { MARKET_STATUSES, type MarketStatus } from "../../../core/types.js";
import { toWei } from "../../../core/wei.js";
import { weiToString } from "../../../venue/wire.js";
import type { MockContext } from "../../context.js";
import type { EventScenario, MarketScenario } from "../../scenario/types.js";

/** Statuses under which a market is publicly listed in a match (DRAFT/PROPOSED/CANCELLED/VOIDED are not). */
const NOT_PUBLIC: readonly MarketStatus[] = ["DRAFT", "PROPOSED", "CANCELLED", "VOIDED"];
export const PUBLIC_MARKET_STATUSES: ReadonlySet<MarketStatus> = new Set(
  MARKET_STATUSES.filter((s) => !NOT_PUBLIC.includes(s)),
);

interface Timeline {
  updatedAt: number;
  pausedAt: number | undefined;
  resolvedAt: number | undefined;
}

/**
 * Builds the spec's Market record (every field of the Market table) from the scenario, the
 * venue's live status and the last trade prices. The venue's status changes are followed through
 * its event stream, so `updatedAt`, `pausedAt` and `resolvedAt` move with the admin API.
 * Fields the scenario does not carry take fixed values (README "Assumptions"): createdAt and
 * opensAt are the mock's start, kickoff and the event start are the event's earliest closesAt,
 * and outcomePrices fall back to initialOutcomePrices until an outcome has traded.
 * payoutNumerators is the payout per share of each outcome (decimal strings, outcomeLabels order)
 * once the admin API resolved the market, null before (and for a market the scenario starts RESOLVED).
 */
export class MarketRecords {
  readonly #ctx: MockContext;
  readonly #startedAt: number;
  readonly #timeline = new Map<string, Timeline>();

  constructor(ctx: MockContext) {
    this.#ctx = ctx;
    this.#startedAt = ctx.clock.now();
    for (const m of ctx.markets.all) {
      this.#timeline.set(m.id, {
        updatedAt: this.#startedAt,
        pausedAt: m.status === "PAUSED" ? this.#startedAt : undefined,
        resolvedAt: m.status === "RESOLVED" ? this.#startedAt : undefined,
      });
    }
    ctx.venue.subscribe((e) => {
      if (e.type !== "market_status") return;
      const t = this.#timeline.get(e.marketId);
      if (t === undefined) return;
      t.updatedAt = e.tsMs;
      if (e.status === "PAUSED") t.pausedAt = e.tsMs;
      else if (e.status === "OPEN") t.pausedAt = undefined;
      if (e.status === "RESOLVED") t.resolvedAt = e.tsMs;
    });
  }

  /** When the mock started (createdAt of every scenario record). */
  get startedAt(): number {
    return this.#startedAt;
  }

  /** The market's live status (the venue's). */
  status(m: MarketScenario): MarketStatus {
    return this.#ctx.venue.market(m.id)?.status ?? m.status;
  }

  /** Kickoff of an event: its earliest market closesAt (the scenario has no start time). */
  eventStart(eventId: string): string | null {
    const closes = this.#ctx.markets.all
      .filter((m) => m.eventId === eventId)
      .map((m) => Date.parse(m.closesAt));
    return closes.length === 0 ? null : new Date(Math.min(...closes)).toISOString();
  }

  /** The event a market belongs to. */
  event(m: MarketScenario): EventScenario | undefined {
    return this.#ctx.markets.events.find((e) => e.id === m.eventId);
  }

  /** Last-trade price per outcome (YES, NO), falling back to the initial prices. */
  outcomePrices(m: MarketScenario): [string, string] {
    const [yes0, no0] = initialPrices(m);
    const last = (tokenId: string) => this.#ctx.venue.recentTrades(tokenId, 1)[0]?.price;
    const yes = last(m.yesTokenId);
    const no = last(m.noTokenId);
    return [yes === undefined ? yes0 : weiToString(yes), no === undefined ? no0 : weiToString(no)];
  }

  /** The spec's Market record. */
  record(m: MarketScenario): Record<string, unknown> {
    const t = this.#timeline.get(m.id);
    const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
    const event = this.event(m);
    return {
      id: m.id,
      eventId: m.eventId,
      symbol: m.symbol,
      slug: m.slug,
      title: m.title,
      groupItemTitle: m.groupItemTitle ?? null,
      conditionId: m.conditionId,
      questionId: m.questionId,
      yesTokenId: m.yesTokenId,
      noTokenId: m.noTokenId,
      status: this.status(m),
      currentReviewRound: 0,
      outcomeCount: 2,
      outcomeLabels: ["YES", "NO"],
      initialFairValue: weiToString(toWei(m.initialFairValue, "initialFairValue")),
      initialOutcomePrices: initialPrices(m),
      feeTakerBps: m.feeTakerBps,
      opensAt: iso(this.#startedAt),
      closesAt: new Date(m.closesAt).toISOString(),
      kickoff: this.eventStart(m.eventId),
      resolutionWindowHours: 24,
      pausedAt: iso(t?.pausedAt),
      resolvedAt: iso(t?.resolvedAt),
      payoutNumerators: this.#ctx.resolutions.payoutsOf(m.id) ?? null,
      officialDataSource: null,
      sourceMatchId: event?.teamA !== undefined && event.teamB !== undefined ? event.slug : null,
      resolutionCriteria: `Resolves YES if: ${m.title}.`,
      negRiskEligible: m.negRisk,
      isNewMarketType: false,
      createdAt: iso(this.#startedAt),
      updatedAt: iso(t?.updatedAt ?? this.#startedAt),
      outcomePrices: this.outcomePrices(m),
    };
  }
}

/** Opening prices (YES = initialFairValue, NO = 1 − it), decimal strings. */
export function initialPrices(m: MarketScenario): [string, string] {
  const yes = toWei(m.initialFairValue, "initialFairValue");
  return [weiToString(yes), weiToString(1_000_000n - yes)];
}
