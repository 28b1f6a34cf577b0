import { RecordedWriter } from "../../../../src/recorded/format.js";
import { mulberry32 } from "../../../support/mulberry32.js";

export const GEN_TOKEN = "4242";
export const GEN_CONDITION = `0x${"ab".repeat(32)}`;

const price = (ticks: number): string => (ticks / 100).toFixed(2);

/**
 * Writes a recorded file of one token (GEN_TOKEN unless given): a snapshot (10 levels a side around
 * `mid` ticks, default 0.50, tick 0.01), then
 * `frames − 1` book_delta frames `stepMs` apart. Each delta resizes one or two levels near the
 * touch; every 40th frame the whole book shifts one tick (the levels left behind removed, the new
 * ones added), so resting quotes get crossed and queues churn. Streams: nothing is held in memory.
 */
export async function writeRecording(
  path: string,
  frames: number,
  opts: { seed?: number; stepMs?: number; t0?: number; token?: string; mid?: number } = {},
): Promise<void> {
  const token = opts.token ?? GEN_TOKEN;
  const u = mulberry32(opts.seed ?? 7);
  const stepMs = opts.stepMs ?? 20;
  const t0 = opts.t0 ?? 1_750_000_000_000;
  const w = RecordedWriter.create(path);
  let mid = opts.mid ?? 50;
  const size = (): string => String(10 + Math.floor(u() * 490));
  const frame = (type: string, data: Record<string, unknown>) => ({
    type,
    sid: 1,
    channel: "token_book",
    id: token,
    data: { tokenId: token, conditionId: GEN_CONDITION, ...data },
  });
  const bids = Array.from({ length: 10 }, (_, i) => ({ price: price(mid - 1 - i), size: size() }));
  const asks = Array.from({ length: 10 }, (_, i) => ({ price: price(mid + 1 + i), size: size() }));
  await w.write({ recvTs: t0, frame: frame("book_snapshot", { seq: 1, bids, asks, tsMs: t0 }) });
  for (let n = 2; n <= frames; n++) {
    const ts = t0 + (n - 1) * stepMs;
    const changes: { side: string; price: string; size: string }[] = [];
    if (n % 40 === 0) {
      const up = u() < 0.5 && mid < 80;
      const down = !up && mid > 20;
      if (up) {
        changes.push({ side: "sell", price: price(mid + 1), size: "0" });
        changes.push({ side: "buy", price: price(mid - 10), size: "0" });
        changes.push({ side: "buy", price: price(mid), size: size() });
        changes.push({ side: "sell", price: price(mid + 11), size: size() });
        mid++;
      } else if (down) {
        changes.push({ side: "buy", price: price(mid - 1), size: "0" });
        changes.push({ side: "sell", price: price(mid + 10), size: "0" });
        changes.push({ side: "sell", price: price(mid), size: size() });
        changes.push({ side: "buy", price: price(mid - 11), size: size() });
        mid--;
      }
    } else {
      for (let k = 0; k < 1 + Math.floor(u() * 2); k++) {
        const bid = u() < 0.5;
        const depth = 1 + Math.floor(u() * u() * 4);
        changes.push({
          side: bid ? "buy" : "sell",
          price: price(bid ? mid - depth : mid + depth),
          size: size(),
        });
      }
    }
    await w.write({ recvTs: ts, frame: frame("book_delta", { seq: n, prevSeq: n - 1, changes, tsMs: ts }) });
  }
  await w.close();
}
