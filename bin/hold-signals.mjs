// Preloaded by `npm start` and `npm run mm` (node --import ./bin/hold-signals.mjs --import tsx …),
// before tsx and mm's TypeScript load, which takes seconds: `mm run`/`mm paper`/`mm record` hold their
// stop signals (and the daemons SIGUSR2) from here, so a Ctrl-C while mm loads stops it like one
// during the start (exit 0, the `stopped` line) instead of killing it. Plain JavaScript with no
// imports, so it runs in moments. src/app/early-signals.ts takes over the handlers and what they
// held (adoptPreloaded); its table of commands and signals is the same (test/unit/app/early-signals).
const HELD = ["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR2"];
const COMMANDS = new Map([
  ["run", HELD],
  ["paper", HELD],
  ["record", ["SIGINT", "SIGTERM", "SIGHUP"]],
]);

const held = COMMANDS.get(process.argv[2] ?? "");
if (held !== undefined) {
  const state = { received: [], handlers: new Map() };
  for (const sig of held) {
    const h = () => void state.received.push(sig);
    process.on(sig, h);
    state.handlers.set(sig, h);
  }
  globalThis[Symbol.for("mm.preloadedSignals")] = state;
}
