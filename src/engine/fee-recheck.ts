import type { Clock } from "../core/clock.js";
import type { Logger } from "../observability/logger.js";
import type { TokenTable } from "./engine-tokens.js";
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
        const fee = record.feeTakerBps;
        const before = tokens.get(tokens.tokensOf(marketId)[0] ?? "")?.market.feeTakerBps;
        if (fee === undefined || !tokens.setMarketFee(marketId, fee)) {
          log.debug({ marketId, slug, feeTakerBps: fee }, "market's fee unchanged after a bad_signature");
          return;
        }
        log.warn(
          { marketId, slug, feeTakerBps: fee, previous: before },
          "market's feeTakerBps changed (its record, read after a bad_signature): orders are signed with the new one",
        );
        for (const t of tokens.tokensOf(marketId)) this.#deps.requote(t);
      },
      (err: unknown) => {
        this.#reads.set(marketId, clock.now());
        log.warn({ err, marketId, slug }, "market's record unreadable after a bad_signature");
      },
    );
  }
}
