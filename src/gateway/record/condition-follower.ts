import type { ChannelEvent } from "../schema/events.js";
import type { SubscribeOutcome } from "../waiters.js";

/** What the follower needs of the gateway client. */
export interface ConditionSubscriber {
  subscribe(channel: "condition_lifecycle", ids: readonly string[]): Promise<SubscribeOutcome>;
}

const CONDITION_ID = /^0x[0-9a-fA-F]{64}$/;

/**
 * Subscribes condition_lifecycle for the markets of the recorded tokens as their conditionIds
 * become known. `mm record` is given token ids only, and every per-token event names its token's
 * conditionId (spec: Events), so the first book snapshot (or trade print) of a token names its
 * market: the lifecycle subscription follows within a round trip of the token's first frame,
 * with no REST call (the recorder needs nothing but /ws/market). Conditions learned together are
 * subscribed in one call; each condition is subscribed once (the client resubscribes it after a
 * reconnect, and its refusals reach the client's onRejected like any other).
 * @example
 * const f = new ConditionFollower(client, tokens);
 * client.onEvent((e) => f.see(e));
 */
export class ConditionFollower {
  readonly #client: ConditionSubscriber;
  readonly #tokens: ReadonlySet<string>;
  readonly #known = new Set<string>();
  #batch: string[] = [];
  #accepted = 0;

  constructor(client: ConditionSubscriber, tokens: Iterable<string>) {
    this.#client = client;
    this.#tokens = new Set(tokens);
  }

  /** The conditions subscribed so far (lowercase), in the order they were learned. */
  get conditions(): readonly string[] {
    return [...this.#known];
  }

  /** Conditions the server accepted so far. */
  get accepted(): number {
    return this.#accepted;
  }

  /** Reads a validated event: a recorded token's first event with a new conditionId subscribes it. */
  see(e: ChannelEvent): void {
    if (!("tokenId" in e) || !("conditionId" in e)) return;
    const { tokenId, conditionId } = e;
    if (!this.#tokens.has(tokenId) || typeof conditionId !== "string" || !CONDITION_ID.test(conditionId))
      return;
    // The spec's ids for condition_lifecycle are lowercase hex; a checksum-cased id is the same market.
    const id = conditionId.toLowerCase();
    if (this.#known.has(id)) return;
    this.#known.add(id);
    this.#batch.push(id);
    // The two tokens of a market (and every token of one snapshot burst) in one subscribe.
    if (this.#batch.length === 1) queueMicrotask(() => this.#flush());
  }

  #flush(): void {
    const ids = this.#batch;
    this.#batch = [];
    this.#client.subscribe("condition_lifecycle", ids).then(
      (out) => {
        this.#accepted += out.accepted.length;
      },
      // client_closed while the recording stops, or a fatal close, which stops it anyway.
      () => undefined,
    );
  }
}
