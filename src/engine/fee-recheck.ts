import type { Clock } from "../core/clock.js";
import type { Logger } from "../observability/logger.js";
import type { RiskDecision } from "../risk/decision.js";
import type { RiskGuard } from "../risk/guard.js";
import type { TokenTable } from "./engine-tokens.js";
import { judgeMarketFee } from "./fee-cap.js";
import type { ExchangePort } from "./ports.js";

/** The placement reject code for a signature that does not recover to the wallet. */
export const BAD_SIGNATURE = "bad_signature";

/**
 * After a read of a market's record prompted by a `bad_signature`, no other read of it starts for
 * this long. Placements in flight when the fee changed are refused too, one read answers for all of
 * them; a signature refused for another reason (a wrong key, signatureType) keeps counting towards
 * the error-rate halt, which stops the placements and so the reads.
 */
export const FEE_RECHECK_EVERY_MS = 10_000;

/** What the recheck needs of the engine. */
export interface FeeRecheckDeps {
  readonly clock: Clock;
  readonly exchange: Pick<ExchangePort, "marketRecord">;
  readonly log: Logger;
  readonly tokens: TokenTable;
  /** Holds a market whose new fee is above the cap (fee-cap.ts). */
  readonly risk: RiskGuard;
  enforce(decision: RiskDecision | undefined): void;
  /** False once the engine stops: no read starts then. */
  quotingEnabled(): boolean;
  requote(tokenId: string): void;
}

/**
 * Re-reads a market's feeTakerBps after a placement there was refused `bad_signature`. The spec
 * names a feeRateBps not equal to the market's feeTakerBps as the usual cause, and the fee is read
 * with the market list at start: a fee the operator changes would have every order on the market
 * refused until a restart, while the error-rate halt trips again after each cool-down. A record
 * with another fee replaces it on the market's tokens (the next placement is signed with it: the
 * engine passes its market to `sign`) and requotes them; the same fee changes nothing (logged at
 * debug; the refusal still counts towards the halt). One read per market at a time, and none within
 * FEE_RECHECK_EVERY_MS of the last; a failed read is logged. A port without `marketRecord` (the
 * backtest's venue, which checks no signature) reads nothing.
 * @example
 * const recheck = new FeeRecheck(core);
 * recheck.refused("m1"); // GET /api/markets/{slug}; feeTakerBps 30 → the tokens of m1 sign 30 from now on
 */
export class FeeRecheck {
  readonly #deps: FeeRecheckDeps;
  /** Market → when its last read was answered; NaN while a read is out. */
  readonly #reads = new Map<string, number>();

  constructor(deps: FeeRecheckDeps) {
    this.#deps = deps;
  }

  /** A placement on `marketId` was refused `bad_signature`. */
  refused(marketId: string): void {
    const { clock, exchange, log, tokens } = this.#deps;
    if (exchange.marketRecord === undefined || !this.#deps.quotingEnabled()) return;
    const last = this.#reads.get(marketId);
    // NaN (a read out) fails the comparison, as does a recent read.
    if (last !== undefined && !(clock.now() - last >= FEE_RECHECK_EVERY_MS)) return;
    this.#reads.set(marketId, Number.NaN);
    const slug = tokens.slugOf(marketId);
    void exchange.marketRecord({ marketId, slug }).then(
      (record) => {
        this.#reads.set(marketId, clock.now());
        if (!takeRecordFee(this.#deps, marketId, record.feeTakerBps, "after a bad_signature")) {
          log.debug(
            { marketId, slug, feeTakerBps: record.feeTakerBps },
            "market's fee unchanged after a bad_signature",
          );
        }
      },
      (err: unknown) => {
        this.#reads.set(marketId, clock.now());
        log.warn({ err, marketId, slug }, "market's record unreadable after a bad_signature");
      },
    );
  }
}

/**
 * Takes the feeTakerBps of a market record read for any reason (`how`: how it was read, for the log
 * line "its record, read <how>": "after a bad_signature", "by the open-market sweep") onto the
 * market's tokens: when it differs from theirs, the next placements are signed with it and the
 * tokens are requoted (logged at warn); a fee above the cap holds the market unquotable, one back
 * within it lets it be quoted (fee-cap.ts). `undefined` (the port does not say) changes nothing.
 * Every read of an open market's record goes through here: the open-market sweep's (a market its
 * list shows with another fee than the one held is read, listFeeDiffers), a bad_signature's recheck,
 * and the reads for a market_not_open refusal or a position drift (readSettledRecord), so whichever
 * comes first catches a fee change. Never the list's fee itself: a list lagging the record put the
 * old fee back, or lifted a fee hold, every period (review22 r3).
 * @returns whether the fee changed.
 */
export function takeRecordFee(
  deps: Pick<FeeRecheckDeps, "log" | "tokens" | "requote" | "risk" | "enforce">,
  marketId: string,
  fee: number | null | undefined,
  how: string,
): boolean {
  const { log, tokens } = deps;
  const before = heldFee(tokens, marketId);
  if (fee === undefined || !tokens.setMarketFee(marketId, fee)) return false;
  log.warn(
    { marketId, slug: tokens.slugOf(marketId), feeTakerBps: fee, previous: before, read: how },
    `market's feeTakerBps changed (its record, read ${how}): orders are signed with the new one`,
  );
  // Before the requote: its step must find the market held when the new fee is above the cap.
  judgeMarketFee(deps, marketId, fee);
  for (const t of tokens.tokensOf(marketId)) deps.requote(t);
  return true;
}

/** The feeTakerBps the market's tokens are signed with now (undefined: no token of it is held). */
function heldFee(tokens: TokenTable, marketId: string): number | null | undefined {
  return tokens.get(tokens.tokensOf(marketId)[0] ?? "")?.market.feeTakerBps;
}

/**
 * Whether a market list's feeTakerBps for a market differs from the one its tokens are signed with:
 * the open-market sweep then reads the market's record and takes the record's fee (takeRecordFee),
 * never the list's, which can lag the record. A list that does not say (undefined) or says null
 * (the platform default, also what a record missing the field reads as) is no difference.
 */
export function listFeeDiffers(
  tokens: TokenTable,
  marketId: string,
  listed: number | null | undefined,
): boolean {
  if (listed === undefined || listed === null) return false;
  const held = heldFee(tokens, marketId);
  return held !== undefined && held !== listed;
}
