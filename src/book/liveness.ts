/** The link a token's subscription lives on now (undefined: none known). */
export type LinkOf = (tokenId: string) => number | undefined;

/**
 * The connection's last signs of life (pongs, a link coming up), per link. Books are spread over
 * several /ws/market links, each its own socket that can fall silent alone, so a book is judged
 * only by the link its subscription lives on: a pong on link 0 says nothing about link 1's books.
 * A book on no known link (a tracker told no links, the single-connection case; or a token not
 * placed on a link) is judged by the latest sign of life of any link, as one connection would be.
 */
export class LinkLiveness {
  /** Latest sign of life of any link (or of the one connection, when none is named). */
  #any: number | undefined;
  readonly #byLink = new Map<number, number>();

  /** Records a sign of life at `ts`, of `link` when known. */
  record(ts: number, link: number | undefined): void {
    this.#any = ts;
    if (link !== undefined) this.#byLink.set(link, ts);
  }

  /** The last sign of life that counts for a book on `link`; undefined before any. */
  last(link: number | undefined): number | undefined {
    return link === undefined ? this.#any : this.#byLink.get(link);
  }

  /**
   * Whether a sign of life of `from` counts for a book on `link`: its own link's, or (a book on
   * no known link) any.
   */
  static counts(from: number | undefined, link: number | undefined): boolean {
    return link === undefined || link === from;
  }

  /** Moves every instant still ahead of `now` back by `step` (the clock stepped back: ClockStepWatch). */
  stepBack(now: number, step: number): void {
    if (this.#any !== undefined && this.#any > now) this.#any -= step;
    for (const [link, ts] of this.#byLink) if (ts > now) this.#byLink.set(link, ts - step);
  }
}
