import { CARRIED_SID, CARRIED_VIA, type MarketFrame } from "../../recorded/format.js";
import { lifecycleStatus } from "../lifecycle-status.js";
import { parseEventFrame } from "../schema/events.js";
import { PLATFORM_STATUS_ID } from "../types.js";

/** The frame types that set a market's or the platform's state in the replay (sim/lifecycle.ts). */
const LIFECYCLE_TYPES: ReadonlySet<string> = new Set([
  "market_paused",
  "market_unpaused",
  "market_resolved",
  "market_status",
  "platform_status",
]);

/** A lifecycle frame of the recording and its place in it (the index among the frames accepted). */
interface Seen {
  readonly index: number;
  readonly frame: MarketFrame;
}

/** One market's (or the platform's) recorded lifecycle frames not yet behind a rotation. */
interface Followed {
  /** The latest frame, and the ones still queued after it. */
  frames: Seen[];
  /**
   * The latest frame the state hangs on, and queued ones after it: a market's latest
   * market_resolved (only it carries the payouts), the platform's latest platform_status with a
   * boolean `frozen` (the spec's platform_status is a passthrough whose `frozen` is optional, and a
   * frame without it, an eta or reason update, says nothing of the freeze).
   */
  anchor: Seen[];
}

/**
 * The lifecycle state a recording has written so far, to carry into each rotated file: without it
 * a file replayed alone would quote a market paused, resolved or frozen in an earlier file. Sees
 * every frame the writer accepts, in order (`accepted`); keeps, per market and for the platform,
 * the last valid lifecycle frame and the last one the state hangs on: a market's `market_resolved`
 * (a later status read must not lose the payouts), the platform's `platform_status` with a boolean
 * `frozen` (a later update without it must not lose the freeze). `heads(written)` gives, at a
 * rotation, the state as of the first `written` frames (those in the earlier files: frames still
 * queued land in the new file after its head), as copies marked `"sid": CARRIED_SID, "via":
 * CARRIED_VIA`: that frame first, then the last frame when it is another.
 * Frames of other types cost a set lookup; lifecycle ones, rare, are parsed (a frame the replay's
 * parser would refuse is not carried).
 * @example
 * const carry = new LifecycleCarry();
 * carry.accepted(frame); // for each frame written, in order
 * const head = carry.heads(framesWrittenBefore); // at a rotation
 */
export class LifecycleCarry {
  readonly #followed = new Map<string, Followed>();
  #accepted = 0;

  /** One frame accepted by the writer (the next in the recording). */
  accepted(frame: MarketFrame): void {
    const index = this.#accepted++;
    if (!LIFECYCLE_TYPES.has(frame.type) || frame.sid === CARRIED_SID) return;
    const parsed = parseEventFrame(frame as Record<string, unknown>, "market");
    if ("rejected" in parsed) return;
    const e = parsed.event;
    const key = e.type === "platform_status" ? PLATFORM_STATUS_ID : lifecycleStatus(e)?.conditionId;
    if (key === undefined) return;
    let f = this.#followed.get(key.toLowerCase());
    if (f === undefined) {
      f = { frames: [], anchor: [] };
      this.#followed.set(key.toLowerCase(), f);
    }
    const seen = { index, frame };
    f.frames.push(seen);
    if (e.type === "market_resolved" || (e.type === "platform_status" && e.frozen !== undefined))
      f.anchor.push(seen);
  }

  /**
   * The frames to write at the head of a new file that follows the first `written` frames accepted:
   * per market and the platform, its last resolution (the platform: its last frame saying
   * `frozen`) and its last lifecycle frame among them.
   */
  heads(written: number): MarketFrame[] {
    const out: MarketFrame[] = [];
    for (const f of this.#followed.values()) {
      f.frames = settled(f.frames, written);
      f.anchor = settled(f.anchor, written);
      const last = f.frames[0];
      const anchor = f.anchor[0];
      if (anchor !== undefined && anchor.index < written && anchor !== last) out.push(carried(anchor.frame));
      if (last !== undefined && last.index < written) out.push(carried(last.frame));
    }
    return out;
  }
}

/** `seen` without the entries made stale by a later one before `written`. */
function settled(seen: Seen[], written: number): Seen[] {
  let latest = -1;
  for (let i = 0; i < seen.length && (seen[i] as Seen).index < written; i++) latest = i;
  return latest <= 0 ? seen : seen.slice(latest);
}

function carried(frame: MarketFrame): MarketFrame {
  return { ...frame, sid: CARRIED_SID, via: CARRIED_VIA };
}
