import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { MissedPrints } from "../../../../src/gateway/record/missed-prints.js";
import { RotatingWriter } from "../../../../src/gateway/record/rotating-writer.js";
import { SetClock } from "../../../support/set-clock.js";

/*
 * Review s19 (r2rec): MissedPrints.stop() (new this session) writes every stretch still open when
 * the recording stops, and the summary's printsMissed is MissedPrints.written. A recording stops
 * with stretches open exactly when it stops during an outage, and one way it stops by itself is
 * writing failing (a stalled disk past --buffer-mb, write_stalled, or a disk error: RotatingWriter onFailure → stop). stop() then hands its marks to a
 * writer that refuses them (write() returns false once failed; the recorder wires the mark writes
 * with `void writer.write(…)`), and counts them anyway: the summary says `printsMissed: 2` with
 * no mark in the files, so the operator believes the lost prints are marked while the replay lists
 * none (data.printsMissed absent) and takes the outage for a quiet market. Pinned: a mark the
 * writer refused is not counted as written.
 */

const root = mkdtempSync(join(tmpdir(), "mm-review-r2rec-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A disk that fails every write (ENOSPC). */
class FullDisk extends Writable {
  override _write(_c: Buffer, _e: BufferEncoding, done: (err?: Error | null) => void): void {
    done(Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" }));
  }
}

describe("MissedPrints.stop() on a writer that has failed", () => {
  it("does not count the marks the writer refused", async () => {
    const clock = new SetClock(1_000);
    let failed: unknown;
    // A disk that stopped taking bytes: the frames waiting for it pass --buffer-mb (here tiny), and
    // the writer stops with write_stalled, which stops the recording (recorder.ts onFailure).
    const writer = new RotatingWriter({
      dir: root,
      clock,
      policy: {},
      maxPendingBytes: 16,
      openSink: () => new FullDisk(),
      onFailure: (err) => {
        failed = err;
      },
    });
    writer.write({ recvTs: 1_000, frame: { type: "book_delta", sid: 1, channel: "token_book", id: "1" } });
    expect(failed).toBeDefined(); // the recording stops here: writing failed
    const missed = new MissedPrints({
      client: { idsOn: () => ["1", "2"] },
      clock,
      // As recorder.ts wires it, but passing on whether the writer took the mark.
      write: (frame) => writer.write({ recvTs: clock.now(), frame }),
    });
    missed.frame(0, 1_000);
    clock.t = 2_000;
    missed.down(0); // the outage the recording stopped in
    clock.t = 3_000;
    missed.stop();
    await writer.close();
    expect(writer.frames).toBe(0); // nothing reached the files
    expect(missed.written).toBe(0); // the summary's printsMissed
  });
});
