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
   * market_resolved (it settles the market), the platform's latest platform_status with a
   * boolean `frozen` (the spec's platform_status is a passthrough whose `frozen` is optional, and a
   * frame without it, an eta or reason update, says nothing of the freeze).
   */
  anchor: Seen[];
  /**
   * A market's latest market_resolved with payouts, and queued ones after it. `payouts` is optional
   * in the schema: a resolution repeated without them (a re-push, a relay that drops the field)
   * says nothing of the payouts, and the replay keeps those it had (it marks the tokens at them and
   * never unmarks), so the carry must keep them too.
   */
  paid: Seen[];
}

/**
 * The lifecycle state a recording has written so far, to carry into each rotated file: without it
 * a file replayed alone would quote a market paused, resolved or frozen in an earlier file. Sees
 * every frame the writer accepts, in order (`accepted`); keeps, per market and for the platform,
 * the last valid lifecycle frame and the last one the state hangs on: a market's last
 * `market_resolved` with payouts, else its last `market_resolved` (a later status read, or a later
 * resolution without payouts, must not lose the payouts), the platform's `platform_status` with a
 * boolean `frozen` (a later update without it must not lose the freeze). `heads(written)` gives, at a
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
      f = { frames: [], anchor: [], paid: [] };
      this.#followed.set(key.toLowerCase(), f);
    }
    const seen = { index, frame };
    f.frames.push(seen);
    if (e.type === "market_resolved" || (e.type === "platform_status" && e.frozen !== undefined))
      f.anchor.push(seen);
    if (e.type === "market_resolved" && e.payouts !== undefined) f.paid.push(seen);
  }

  /**
   * The frames to write at the head of a new file that follows the first `written` frames accepted:
   * per market and the platform, its last resolution with payouts, else its last resolution (the
   * platform: its last frame saying `frozen`), then its last lifecycle frame among them when it is
   * another.
   */
  heads(written: number): MarketFrame[] {
    const out: MarketFrame[] = [];
    for (const f of this.#followed.values()) {
      f.frames = settled(f.frames, written);
      f.anchor = settled(f.anchor, written);
      f.paid = settled(f.paid, written);
      const last = before(f.frames, written);
      // The payouts' frame comes before any later resolution without them: the replay of this file
      // alone marks the tokens at them, and skips the later one as it repeats the RESOLVED it knows.
      const anchor = before(f.paid, written) ?? before(f.anchor, written);
      if (anchor !== undefined && anchor !== last) out.push(carried(anchor.frame));
      if (last !== undefined) out.push(carried(last.frame));
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

/** The first of `seen` (pruned by settled()) when it was written before `written`. */
function before(seen: readonly Seen[], written: number): Seen | undefined {
  const first = seen[0];
  return first !== undefined && first.index < written ? first : undefined;
}

function carried(frame: MarketFrame): MarketFrame {
  return { ...frame, sid: CARRIED_SID, via: CARRIED_VIA };
}
