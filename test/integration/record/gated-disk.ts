import { Writable } from "node:stream";

/**
 * A disk that takes nothing until released, then everything (a stalled or slow disk catching up):
 * every chunk written is kept in `chunks`, its write answered only once `release()` is called.
 */
export class GatedDisk extends Writable {
  readonly chunks: Buffer[] = [];
  #held: (() => void)[] = [];
  #open = false;
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk);
    if (this.#open) done();
    else this.#held.push(done);
  }
  /** From now on every write is taken at once, and the held ones are answered. */
  release(): void {
    this.#open = true;
    for (const done of this.#held.splice(0)) done();
  }
}
