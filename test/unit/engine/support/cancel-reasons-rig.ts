import type { Database } from "better-sqlite3";
import { Registry } from "prom-client";
import { afterEach } from "vitest";
import { SimClock } from "../../../../src/core/sim-clock.js";
import type { EngineEvent } from "../../../../src/engine/engine-events.js";
import type { CancelReason } from "../../../../src/execution/intents.js";
import { openJournalDb } from "../../../../src/journal/open.js";
import { JournalRecorder } from "../../../../src/journal/recorder.js";
import { JournalWriter } from "../../../../src/journal/writer.js";
import { createLogger } from "../../../../src/observability/logger.js";
import { createMetrics, type Metrics } from "../../../../src/observability/metrics.js";
import { collectingStream } from "../../../support/collecting-stream.js";
import { journalPath } from "../../journal/support.js";
import { parseExposition, sumOf } from "../../observability/exposition.js";
import { Harness, type HarnessOptions, T0 } from "./harness.js";

/**
 * A Harness whose engine events feed a real Metrics registry and a real JournalRecorder on a fresh
 * journal file, as the daemon wires them: what a scenario asked to cancel is read back from
 * `mm_order_cancel_requests_total` and from the journal's cancel rows.
 */
export class CancelReasonsRig {
  readonly h: Harness;
  readonly metrics: Metrics;
  readonly #registry = new Registry();
  readonly #db: Database;
  readonly #rec: JournalRecorder;

  constructor(o: HarnessOptions = {}) {
    this.metrics = createMetrics({ registry: this.#registry, defaultMetrics: false });
    this.#db = openJournalDb(journalPath());
    const writer = new JournalWriter(this.#db);
    const run = writer.beginRun({ account: "a", session: "s1", atMs: T0, tokens: [] });
    const logger = createLogger({ level: "error", pretty: false, destination: collectingStream() });
    // The recorder's own timers (unsent counts) run on a clock of their own: the scenario's clock
    // is the harness's, created with it.
    this.#rec = new JournalRecorder({ writer, run, clock: new SimClock(T0), logger, snapshotIntervalMs: 0 });
    const onEvent = (e: EngineEvent) => {
      this.metrics.listener(e);
      this.#rec.onEvent(e);
      o.onEvent?.(e);
    };
    this.h = new Harness({ ...o, onEvent });
    this.metrics.watchEngine(this.h.engine);
  }

  /** mm_order_cancel_requests_total by reason (reasons at 0 left out). */
  async counted(): Promise<Record<string, number>> {
    const families = parseExposition(await this.#registry.metrics());
    const out: Record<string, number> = {};
    for (const s of families.get("mm_order_cancel_requests_total")?.samples ?? []) {
      const reason = s.labels.reason as string;
      if (s.value > 0) out[reason] = s.value;
    }
    return out;
  }

  /** A scrape's value of one series. */
  async scraped(name: string, labels: Record<string, string> = {}): Promise<number> {
    return sumOf(parseExposition(await this.#registry.metrics()), name, labels);
  }

  /** The reasons of the journal's cancel and cancel-all rows of `op`, in order. */
  journaled(op: "cancel" | "cancel_all"): (CancelReason | null)[] {
    return (
      this.#db.prepare("SELECT reason FROM outcomes WHERE op = ? ORDER BY id").all(op) as {
        reason: CancelReason | null;
      }[]
    ).map((r) => r.reason);
  }

  /**
   * Starts the engine quoting token 1's yes against a crowd at 0.48/0.52 and runs 500 ms, enough
   * for the start to return when the venue answers late (`latencyMs`): the yes token.
   */
  async startQuoting(): Promise<string> {
    const [yes] = this.h.tokens();
    this.h.crowdQuote(yes, "0.48", "0.52");
    const starting = this.h.engine.start();
    await this.h.run(500);
    await starting;
    return yes;
  }

  /** The reasons of the engine's cancel_requested events, in order. */
  requested(): CancelReason[] {
    return this.h.eventsOf("cancel_requested").map((e) => e.reason);
  }

  close(): void {
    this.#rec.close();
    this.metrics.close();
    this.#db.close();
  }
}

/**
 * The maker of a test file's rigs: each rig it makes is closed after its test (call once, at the
 * file's top level, where vitest's afterEach belongs).
 */
export function cancelReasonsRigs(): (o?: HarnessOptions) => CancelReasonsRig {
  const open: CancelReasonsRig[] = [];
  afterEach(() => {
    for (const rig of open.splice(0)) rig.close();
  });
  return (o = {}) => {
    const rig = new CancelReasonsRig(o);
    open.push(rig);
    return rig;
  };
}
