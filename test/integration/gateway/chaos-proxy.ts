import type { AddressInfo } from "node:net";
import WebSocket, { WebSocketServer } from "ws";

/** How often each fault strikes a token_book frame (or a get_book_snapshot command), in [0, 1). */
export interface ChaosRates {
  /** A frame lost: the next one shows a sequence gap. */
  readonly drop: number;
  /** A frame sent twice, the copy a few frames later. */
  readonly duplicate: number;
  /** A frame sent after the one that follows it. */
  readonly reorder: number;
  /** A frame made malformed beyond doubt (see ChaosCounts). */
  readonly malformed: number;
  /** A book_snapshot held back behind the next 1–4 frames (a slow snapshot). */
  readonly slowSnapshot: number;
  /** A get_book_snapshot command lost on its way to the exchange (the tracker's timeout retries). */
  readonly lostRequest: number;
}

/** What the proxy did, for the test's accounting. */
export interface ChaosCounts {
  dropped: number;
  duplicated: number;
  reordered: number;
  slowSnapshots: number;
  lostRequests: number;
  /** Malformed as a whole frame (cut text, a seq that is a string): the gateway's boundary counts them. */
  badFrames: number;
  /** Malformed inside the entries (a price "abc", changes not a list): the tracker's to refuse. */
  badEntries: number;
  /** Frames forwarded each way (the quiescence signature). */
  down: number;
  up: number;
}

interface Held {
  readonly text: string;
  left: number;
}

const BOOK_TYPES = new Set(["book_snapshot", "book_update", "book_delta"]);

/**
 * A WebSocket proxy on 127.0.0.1 in front of the mock's /ws/market that damages the token_book
 * stream the way a bad network path or a faulty gateway would: frames dropped, duplicated,
 * reordered, malformed, snapshots held back, snapshot requests lost, connections cut. Every
 * decision comes from the seeded `rnd`, in frame order.
 */
export class ChaosProxy {
  readonly counts: ChaosCounts = {
    dropped: 0,
    duplicated: 0,
    reordered: 0,
    slowSnapshots: 0,
    lostRequests: 0,
    badFrames: 0,
    badEntries: 0,
    down: 0,
    up: 0,
  };
  /** While false, frames pass untouched (the end of a run: the books must converge). */
  faulty = true;
  readonly #wss: WebSocketServer;
  readonly #pairs = new Set<{ client: WebSocket; upstream: WebSocket }>();
  readonly #rnd: () => number;
  readonly #rates: ChaosRates;

  private constructor(wss: WebSocketServer, target: string, rnd: () => number, rates: ChaosRates) {
    this.#wss = wss;
    this.#rnd = rnd;
    this.#rates = rates;
    wss.on("connection", (client, req) => {
      const upstream = new WebSocket(`${target}${req.url ?? ""}`, {
        headers: { "x-api-key": String(req.headers["x-api-key"] ?? "") },
        perMessageDeflate: false,
      });
      const pair = { client, upstream };
      this.#pairs.add(pair);
      const early: string[] = [];
      const held: Held[] = [];
      upstream.on("open", () => {
        for (const m of early.splice(0)) upstream.send(m);
      });
      upstream.on("message", (data) => this.#down(client, held, String(data)));
      client.on("message", (data) => {
        const text = String(data);
        if (this.faulty && text.includes('"get_book_snapshot"') && this.#rnd() < rates.lostRequest) {
          this.counts.lostRequests++;
          return;
        }
        this.counts.up++;
        if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
        else early.push(text);
      });
      const end = () => {
        this.#pairs.delete(pair);
        client.terminate();
        upstream.terminate();
      };
      client.on("close", end);
      upstream.on("close", end);
      client.on("error", end);
      upstream.on("error", end);
    });
  }

  /** Starts the proxy to `target` (ws://127.0.0.1:port, the client appends /ws/market). */
  static async start(target: string, rnd: () => number, rates: ChaosRates): Promise<ChaosProxy> {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
    return new ChaosProxy(wss, target, rnd, rates);
  }

  /** ws://127.0.0.1:<port> for the client. */
  get url(): string {
    return `ws://127.0.0.1:${(this.#wss.address() as AddressInfo).port}`;
  }

  /** Cuts every connection (frames held back are lost with it). */
  disconnectAll(): void {
    for (const { client } of this.#pairs) client.terminate();
  }

  async close(): Promise<void> {
    this.disconnectAll();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #down(client: WebSocket, held: Held[], text: string): void {
    const send = (t: string): boolean => {
      if (client.readyState !== WebSocket.OPEN) return false;
      this.counts.down++;
      client.send(t);
      return true;
    };
    const frame = this.faulty ? bookFrame(text) : undefined;
    const r = this.#rates;
    if (frame === undefined) send(text);
    else if (frame.type === "book_snapshot" && this.#rnd() < r.slowSnapshot) {
      this.counts.slowSnapshots++;
      held.push({ text, left: 1 + Math.floor(this.#rnd() * 4) });
      return;
    } else {
      const x = this.#rnd();
      if (x < r.drop) {
        this.counts.dropped++;
        return;
      }
      if (x < r.drop + r.duplicate) {
        this.counts.duplicated++;
        send(text);
        held.push({ text, left: Math.floor(this.#rnd() * 4) });
      } else if (x < r.drop + r.duplicate + r.reorder) {
        this.counts.reordered++;
        held.push({ text, left: 1 });
        return;
      } else if (x < r.drop + r.duplicate + r.reorder + r.malformed) {
        const bad = this.#corrupt(frame, text);
        // Counted once on the wire: a frame for a socket already closing never reaches mm.
        if (send(bad.text)) this.counts[bad.whole ? "badFrames" : "badEntries"]++;
      } else send(text);
    }
    // Frames held back go out once enough frames passed them.
    for (const h of [...held]) {
      if (h.left-- > 0) continue;
      held.splice(held.indexOf(h), 1);
      send(h.text);
    }
  }

  /** The frame made malformed beyond doubt; `whole` when the gateway's boundary must catch it. */
  #corrupt(frame: BookFrame, text: string): { text: string; whole: boolean } {
    const whole = (t: string) => ({ text: t, whole: true });
    const entries = (t: string) => ({ text: t, whole: false });
    const d = frame.data;
    const changed = (data: Record<string, unknown>) => JSON.stringify({ ...frame, data: { ...d, ...data } });
    const delta = frame.type === "book_delta";
    switch (Math.floor(this.#rnd() * 5)) {
      case 0:
        return whole(text.slice(0, Math.floor(text.length / 2)));
      case 1:
        return whole(changed({ seq: String(d.seq) }));
      case 2:
        return entries(changed(delta ? { changes: "not a list" } : { bids: "not a list" }));
      case 3: {
        const bad = { side: "buy", price: "abc", size: "1" };
        if (delta) return entries(changed({ changes: [...(d.changes as unknown[]), bad] }));
        return entries(changed({ asks: [...(d.asks as unknown[]), bad] }));
      }
      default: {
        const bad = { side: "sell", price: "0.5", size: "-1" };
        if (delta) return entries(changed({ changes: [bad] }));
        return entries(changed({ bids: [bad, ...(d.bids as unknown[])] }));
      }
    }
  }
}

interface BookFrame {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

function bookFrame(text: string): BookFrame | undefined {
  if (!text.includes('"token_book"')) return undefined;
  const f = JSON.parse(text) as BookFrame & { channel?: string };
  return f.channel === "token_book" && BOOK_TYPES.has(f.type) ? f : undefined;
}
