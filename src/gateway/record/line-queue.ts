/** What the queue writes into, one call at a time and in order. */
export interface LineSink {
  /** Writes one line; resolves when the sink can take more (its back-pressure). */
  write(line: string): Promise<void>;
  /** Puts everything written so far on disk. */
  flush(): Promise<void>;
}

/** A flush (or a plain wait) behind the queued lines. */
interface Barrier {
  readonly flush: boolean;
  readonly done: () => void;
}

/**
 * A bounded queue of lines in front of a sink that may be slow. push() never waits (its caller,
 * a socket's frame handler, cannot); one loop hands the lines to the sink in order, awaiting its
 * back-pressure. The lines waiting are bounded: push() refuses a line that would take them past
 * `limit` characters, and the caller decides what that means (the recorder stops). The first
 * error of the sink is reported once (onError) and the lines still queued are then skipped: a
 * sink that failed cannot take them.
 * @example
 * const q = new LineQueue(sink, 64 << 20, (err) => stop(err));
 * if (!q.push(line)) stop(stalled());
 * await q.wait(true); // everything pushed so far is flushed
 */
export class LineQueue {
  readonly #sink: LineSink;
  readonly #limit: number;
  readonly #onError: (err: unknown) => void;
  #ops: (string | Barrier)[] = [];
  #pending = 0;
  #running = false;
  #failed = false;

  constructor(sink: LineSink, limit: number, onError: (err: unknown) => void) {
    this.#sink = sink;
    this.#limit = limit;
    this.#onError = onError;
  }

  /** Characters queued and not yet handed to the sink. */
  get pending(): number {
    return this.#pending;
  }

  /** The queue's limit, characters. */
  get limit(): number {
    return this.#limit;
  }

  /** Queues `line`; false (and not queued) when it would take the queue past its limit. */
  push(line: string): boolean {
    if (this.#pending + line.length > this.#limit) return false;
    this.#pending += line.length;
    this.#ops.push(line);
    this.#kick();
    return true;
  }

  /** Resolves once every line pushed before has been handed to the sink (and flushed, with `flush`). */
  wait(flush: boolean): Promise<void> {
    return new Promise((done) => {
      this.#ops.push({ flush, done });
      this.#kick();
    });
  }

  /**
   * Gives up on the sink without an error of its own (it hangs): the lines still queued are
   * skipped, should its pending call ever return.
   */
  abandon(): void {
    this.#failed = true;
  }

  #kick(): void {
    if (this.#running) return;
    this.#running = true;
    void this.#run();
  }

  async #run(): Promise<void> {
    try {
      while (this.#ops.length > 0) {
        const ops = this.#ops;
        this.#ops = [];
        for (const op of ops) {
          if (typeof op === "string") {
            this.#pending -= op.length;
            if (!this.#failed) await this.#step(() => this.#sink.write(op));
          } else {
            if (op.flush && !this.#failed) await this.#step(() => this.#sink.flush());
            op.done();
          }
        }
      }
    } finally {
      this.#running = false;
    }
  }

  async #step(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.#failed = true;
      this.#onError(err);
    }
  }
}
