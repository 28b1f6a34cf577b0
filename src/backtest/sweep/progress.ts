/** Where a sweep stands, as the progress display reads it. */
export interface ProgressState {
  /** Grid points in the sweep. */
  readonly total: number;
  /** Points finished, failed ones included. */
  readonly done: number;
  readonly failed: number;
  /** Market events (frames) processed so far over every point, running ones included. */
  readonly events: number;
  /** Events the whole sweep will process, once known (synthetic: from the scenario; replay: after the first point). */
  readonly eventsTotal: number | undefined;
  readonly elapsedMs: number;
}

/**
 * Estimated time left, ms: from the event rate when the total is known, else from the points'
 * pace; undefined before there is anything to extrapolate from.
 * @example etaMs({ total: 4, done: 1, failed: 0, events: 0, eventsTotal: undefined, elapsedMs: 3000 }) // 9000
 */
export function etaMs(s: ProgressState): number | undefined {
  if (s.done >= s.total) return 0;
  if (s.eventsTotal !== undefined && s.events > 0 && s.elapsedMs > 0) {
    return (Math.max(0, s.eventsTotal - s.events) * s.elapsedMs) / s.events;
  }
  if (s.done > 0) return (s.elapsedMs * (s.total - s.done)) / s.done;
  return undefined;
}

/** Events per second since the start (0 before any time has passed). */
export function eventRate(s: ProgressState): number {
  return s.elapsedMs > 0 ? (s.events * 1000) / s.elapsedMs : 0;
}

/**
 * The one-line progress bar for a terminal, at most `columns − 1` characters (the cursor must not
 * wrap, or the carriage return would redraw the wrong line).
 * @example renderBar(state, 80) // "sweep [#######-------------] 3/8 points · 1 failed · 412k events/s · ETA 0:42"
 */
export function renderBar(s: ProgressState, columns: number): string {
  const info = [
    `${s.done}/${s.total} points`,
    ...(s.failed > 0 ? [`${s.failed} failed`] : []),
    `${compact(eventRate(s))} events/s`,
    `ETA ${clock(etaMs(s))}`,
  ].join(" · ");
  const room = columns - 1 - "sweep [] ".length - info.length;
  const width = Math.min(30, room);
  const text = width < 5 ? `sweep ${info}` : `sweep [${bar(fraction(s), width)}] ${info}`;
  return text.slice(0, Math.max(0, columns - 1));
}

/**
 * A plain progress line for logs (no terminal control).
 * @example renderLine(state) // "sweep: 3/8 points done (1 failed), 1234567 events, 412345 events/s, 3.0 s elapsed, ETA 5 s"
 */
export function renderLine(s: ProgressState): string {
  const failed = s.failed > 0 ? ` (${s.failed} failed)` : "";
  const eta = etaMs(s);
  return [
    `sweep: ${s.done}/${s.total} points done${failed}`,
    `${s.events} events`,
    `${Math.round(eventRate(s))} events/s`,
    `${(s.elapsedMs / 1000).toFixed(1)} s elapsed`,
    `ETA ${eta === undefined ? "unknown" : `${Math.ceil(eta / 1000)} s`}`,
  ].join(", ");
}

function fraction(s: ProgressState): number {
  const f =
    s.eventsTotal !== undefined && s.eventsTotal > 0
      ? s.events / s.eventsTotal
      : s.done / Math.max(1, s.total);
  return Math.min(1, Math.max(0, s.done >= s.total ? 1 : f));
}

function bar(f: number, width: number): string {
  const full = Math.floor(f * width);
  return "#".repeat(full) + "-".repeat(width - full);
}

/** 950, 12.3k, 4.56M: three significant figures at most. */
export function compact(n: number): string {
  if (n < 999.5) return String(Math.round(n));
  if (n < 999_500) return `${Number((n / 1e3).toPrecision(3))}k`;
  return `${Number((n / 1e6).toPrecision(3))}M`;
}

/** m:ss, or h:mm:ss from an hour; `--:--` when unknown. */
export function clock(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return "--:--";
  const t = Math.ceil(ms / 1000);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = String(t % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
