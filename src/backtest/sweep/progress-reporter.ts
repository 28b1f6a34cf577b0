import type { ProgressState } from "./progress.js";
import { renderBar, renderLine } from "./progress.js";

/** How progress is shown: a bar redrawn in place, plain periodic lines, or nothing. */
export type ProgressMode = "bar" | "lines" | "none";

/** Where progress goes. */
export interface ProgressSink {
  write(text: string): void;
  /** Terminal width (for the bar). */
  columns(): number;
}

/** Redraw period of the bar, and of the plain lines when no point completes. */
export const BAR_EVERY_MS = 200;
export const LINE_EVERY_MS = 5_000;
/** Width assumed when the terminal reports none (0 columns: a pty never sized, e.g. `script`). */
export const DEFAULT_COLUMNS = 80;

/**
 * Shows a sweep's progress (the I/O half; the text comes from renderBar / renderLine). Bar: one
 * line redrawn in place at most every BAR_EVERY_MS and on each finished point. Lines: a line for
 * each finished point, and every LINE_EVERY_MS while something moved. `stop()` clears the bar.
 */
export class ProgressReporter {
  readonly #mode: ProgressMode;
  readonly #sink: ProgressSink;
  readonly #now: () => number;
  #state: ProgressState | undefined;
  #stateAt = 0;
  #shown: ProgressState | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #drawn = "";

  /** `now` (ms, monotonic) ages a state between updates, so the bar's rate and ETA keep moving. */
  constructor(mode: ProgressMode, sink: ProgressSink, now: () => number = () => performance.now()) {
    this.#mode = mode;
    this.#sink = sink;
    this.#now = now;
    if (mode !== "none") {
      this.#timer = setInterval(() => this.refresh(), mode === "bar" ? BAR_EVERY_MS : LINE_EVERY_MS);
      this.#timer.unref();
    }
  }

  /** The latest state (shown at the next tick). */
  update(state: ProgressState): void {
    this.#state = state;
    this.#stateAt = this.#now();
  }

  /** A point finished: shown now. */
  pointDone(state: ProgressState): void {
    this.update(state);
    this.#show(state);
  }

  /**
   * Prints a whole line (a warning, ending in a newline) whatever the mode: in bar mode the bar is cleared first and
   * drawn again below the line, so the two never share a terminal line.
   */
  note(line: string): void {
    if (this.#mode !== "bar" || this.#drawn === "") {
      this.#sink.write(line);
      return;
    }
    this.#sink.write(`\r\x1b[K${line}\r${this.#drawn}\x1b[K`);
  }

  /** Stops the timer; removes the bar from the terminal. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#mode === "bar" && this.#drawn !== "") this.#sink.write("\r\x1b[K");
    this.#drawn = "";
  }

  /** Redraws (bar) or prints a line if work moved (lines); what the timer calls. */
  refresh(): void {
    const last = this.#state;
    if (last === undefined) return;
    const s = { ...last, elapsedMs: last.elapsedMs + (this.#now() - this.#stateAt) };
    // The bar's rate and ETA move with time; a plain line is only worth printing if work moved.
    if (this.#mode === "lines" && this.#shown !== undefined && sameWork(s, this.#shown)) return;
    this.#show(s);
  }

  #show(s: ProgressState): void {
    if (this.#mode === "none") return;
    this.#shown = s;
    if (this.#mode === "bar") {
      const cols = this.#sink.columns();
      // A pty that was never sized reports 0 columns: the bar would be cut to nothing.
      const bar = renderBar(s, Number.isFinite(cols) && cols > 0 ? cols : DEFAULT_COLUMNS);
      if (bar !== this.#drawn) this.#sink.write(`\r${bar}\x1b[K`);
      this.#drawn = bar;
    } else this.#sink.write(`${renderLine(s)}\n`);
  }
}

function sameWork(a: ProgressState, b: ProgressState): boolean {
  return a.done === b.done && a.events === b.events;
}
