import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../observability/logger.js";
import type { MarketFrame } from "../../recorded/format.js";
import { lifecycleStatus } from "../lifecycle-status.js";
import type { ChannelEvent } from "../schema/events.js";
import { type Channel, PLATFORM_STATUS_ID } from "../types.js";

/** Where the recorder reads the current statuses; each read throws when it cannot answer. */
export interface StatusSource {
  /** A market's current status, by its (lowercase) conditionId, and the read that said it. */
  market(conditionId: string): Promise<{ readonly status: string; readonly via: string }>;
  /** The platform's current status record (an object, `frozen` a boolean when present). */
  platform(): Promise<{ readonly data: Record<string, unknown>; readonly via: string }>;
}

/**
 * The `sid` of a frame the recorder wrote from a REST read, not from a push (a push's sid is the
 * server's subscription id, a number): a reader tells them apart by it, and by the frame's `via`.
 */
export const REST_READ_SID = "rest";

/** What the status reads did, for the recording's summary. */
export interface StatusReadCounts {
  /**
   * Statuses read and written into the recording. One refused by a writer that had failed (the
   * recording stopping on a stalled or failed disk) is counted nowhere: it is in no file.
   */
  readonly recorded: number;
  /** Reads that failed: nothing was written for them (the recording may hold a stale status). */
  readonly failed: number;
  /** Reads answered after a push (or a later read) of the same status: the newer one stands, nothing written. */
  readonly superseded: number;
}

/** One status being followed: a market's conditionId, or PLATFORM_STATUS_ID. */
interface Followed {
  /** Lifecycle pushes seen so far. */
  pushes: number;
  /** Reads started so far (a later read makes an earlier one's answer stale). */
  reads: number;
}

/**
 * Writes each followed status into the recording as read over REST, every time its subscription is
 * (re)accepted: the exchange pushes only changes, so a pause, a reopening or a thaw that happened
 * while the socket was down (or before the recording began) would otherwise never appear in the
 * recording, and a replay would hold the last recorded status for the rest of it. The read is
 * written as the event the replay already acts on (`market_status` with the record's status;
 * `platform_status` with the status record), with sid REST_READ_SID and `via` naming the read.
 * A read answered after a push of the same status (or after a later read began) is dropped: the
 * push may be newer than what the read saw. A failed read writes nothing; it is logged and counted.
 * @example
 * const reads = new StatusReads({ source, clock, write: (frame) => writer.write({ recvTs: clock.now(), frame }) });
 * client.onAccepted((channel, ids) => reads.accepted(channel, ids));
 * client.onEvent((e) => reads.seen(e));
 */
export class StatusReads {
  readonly #source: StatusSource;
  readonly #clock: Clock;
  /** Queues a frame; false when the writer refused it (it failed or closed). */
  readonly #write: (frame: MarketFrame) => boolean;
  readonly #logger: Logger | undefined;
  readonly #followed = new Map<string, Followed>();
  #stopped = false;
  #recorded = 0;
  #failed = 0;
  #superseded = 0;

  constructor(deps: {
    source: StatusSource;
    clock: Clock;
    write: (frame: MarketFrame) => boolean;
    logger?: Logger | undefined;
  }) {
    this.#source = deps.source;
    this.#clock = deps.clock;
    this.#write = deps.write;
    this.#logger = deps.logger;
  }

  get counts(): StatusReadCounts {
    return { recorded: this.#recorded, failed: this.#failed, superseded: this.#superseded };
  }

  /** The server (re)accepted ids of a channel: read the current status of each lifecycle one. */
  accepted(channel: Channel, ids: readonly string[]): void {
    if (channel === "condition_lifecycle") for (const id of ids) this.#read(id.toLowerCase());
    else if (channel === "system" && ids.includes(PLATFORM_STATUS_ID)) this.#read(PLATFORM_STATUS_ID);
  }

  /** A validated push: a lifecycle or platform status event makes the reads in flight for it stale. */
  seen(e: ChannelEvent): void {
    const key = e.type === "platform_status" ? PLATFORM_STATUS_ID : lifecycleStatus(e)?.conditionId;
    if (key === undefined) return;
    const f = this.#followed.get(key.toLowerCase());
    if (f !== undefined) f.pushes++;
  }

  /** The recording stops: answers still to come are dropped. */
  stop(): void {
    this.#stopped = true;
  }

  #read(key: string): void {
    if (this.#stopped) return;
    let f = this.#followed.get(key);
    if (f === undefined) {
      f = { pushes: 0, reads: 0 };
      this.#followed.set(key, f);
    }
    const at = { pushes: f.pushes, reads: ++f.reads };
    const followed = f;
    const current = () => followed.pushes === at.pushes && followed.reads === at.reads;
    const reading = key === PLATFORM_STATUS_ID ? this.#platformFrame() : this.#marketFrame(key);
    reading.then(
      (frame) => {
        if (this.#stopped) return;
        if (!current()) {
          this.#superseded++;
          return;
        }
        // A frame the writer refused (it failed: the recording is stopping) is in no file, and
        // `recorded` says what the files hold; the summary's writeError tells why.
        if (this.#write(frame)) this.#recorded++;
      },
      (err: unknown) => {
        if (this.#stopped) return;
        this.#failed++;
        this.#logger?.warn(
          { err, status: key },
          "status read over REST failed: nothing recorded for it; if it changed while the socket was down, the recording holds the old status until the next push",
        );
      },
    );
  }

  async #marketFrame(conditionId: string): Promise<MarketFrame> {
    const { status, via } = await this.#source.market(conditionId);
    return {
      type: "market_status",
      sid: REST_READ_SID,
      channel: "condition_lifecycle",
      id: conditionId,
      via,
      data: { conditionId, status, tsMs: this.#clock.now() },
    };
  }

  async #platformFrame(): Promise<MarketFrame> {
    const { data, via } = await this.#source.platform();
    return {
      type: "platform_status",
      sid: REST_READ_SID,
      channel: "system",
      id: PLATFORM_STATUS_ID,
      via,
      data,
    };
  }
}
