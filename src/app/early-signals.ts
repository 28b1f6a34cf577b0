// Kept free of imports: bin/mm.js loads this before the rest of mm, so it must load in moments.

/** Every signal held for some command: the stop requests and the kill switch's re-arm. */
const HELD = ["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR2"] as const;

/**
 * The long-running commands whose signals are held from their first moment, and which: the
 * daemons take all four; `mm record` only its stop signals (it has no re-arm, and a held SIGUSR2
 * nobody takes would be swallowed instead of having its default effect).
 */
const HOLDING_COMMANDS: ReadonlyMap<string, readonly NodeJS.Signals[]> = new Map<
  string,
  readonly NodeJS.Signals[]
>([
  ["run", HELD],
  ["paper", HELD],
  ["record", ["SIGINT", "SIGTERM", "SIGHUP"]],
]);

interface Holding {
  /** The held signals received so far, in order of arrival. */
  received: NodeJS.Signals[];
  readonly handlers: Map<NodeJS.Signals, () => void>;
}

let holding: Holding | undefined;

/**
 * Where bin/hold-signals.mjs (preloaded by `npm start` / `npm run mm`, before tsx) leaves its
 * handlers and the signals they held.
 */
const PRELOADED = Symbol.for("mm.preloadedSignals");

/**
 * Takes over what bin/hold-signals.mjs held: removes its handlers (ours are installed, so the
 * process is never without one) and returns the signals they received, first come.
 */
function adoptPreloaded(): NodeJS.Signals[] {
  const store = globalThis as unknown as Record<symbol, Holding | undefined>;
  const pre = store[PRELOADED];
  if (pre === undefined) return [];
  for (const [sig, h] of pre.handlers) process.off(sig, h);
  delete store[PRELOADED];
  return [...pre.received];
}

/**
 * Holds SIGINT, SIGTERM, SIGHUP and SIGUSR2 for `mm run` / `mm paper` (`argv[0]`), and SIGINT,
 * SIGTERM and SIGHUP for `mm record`, from the first moment of the process until the command's
 * own handlers take them (takeEarlySignals). Without a handler, a signal in that window (module
 * loading, reading the configuration) has its default effect, and as PID 1 (the Docker image runs
 * node as the container's init) the kernel drops it: a `docker stop` then goes unheard, mm starts
 * (quotes, or records) and is SIGKILLed at the end of the grace period, its quotes resting or the
 * recording's last second lost. Held, the stop request reaches the command, which stops at once.
 * Other commands keep Node's defaults. Installs once per process. Under `npm start` / `npm run mm`
 * bin/hold-signals.mjs held the same signals before tsx loaded: its handlers are replaced and what
 * they received comes first.
 * @example holdEarlySignals(process.argv.slice(2)); // bin/mm.js, before importing the CLI
 */
export function holdEarlySignals(argv: readonly string[]): void {
  const held = HOLDING_COMMANDS.get(argv[0] ?? "");
  if (holding !== undefined || held === undefined) return;
  const state: Holding = { received: [], handlers: new Map() };
  for (const sig of held) {
    const h = () => void state.received.push(sig);
    process.on(sig, h);
    state.handlers.set(sig, h);
  }
  // Held earlier still by the npm scripts' preload: those arrived first.
  state.received.unshift(...adoptPreloaded());
  holding = state;
}

/**
 * Hands `signals` over to their new handlers: call it once those are installed (so the process
 * always has a handler: as PID 1 a signal meanwhile would be dropped). Removes the holding
 * handlers of `signals` and returns those of them received while held, in order of arrival (empty
 * when nothing held them). A signal the kernel delivered during the same synchronous run reaches
 * the new handlers directly.
 * @example for (const sig of takeEarlySignals(["SIGTERM"])) onStop(sig);
 */
export function takeEarlySignals(signals: readonly NodeJS.Signals[]): NodeJS.Signals[] {
  const state = holding;
  if (state === undefined) return [];
  for (const sig of signals) {
    const h = state.handlers.get(sig);
    if (h === undefined) continue;
    process.off(sig, h);
    state.handlers.delete(sig);
  }
  const taken = state.received.filter((sig) => signals.includes(sig));
  state.received = state.received.filter((sig) => !signals.includes(sig));
  return taken;
}

/** Removes every holding handler and forgets what was held (tests). */
export function releaseEarlySignals(): void {
  takeEarlySignals([...HELD]);
  holding = undefined;
}
