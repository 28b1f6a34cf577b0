// Prints how many listeners each stop/re-arm signal has, as JSON. With --adopt (run under tsx) first lets
// src/app/early-signals.ts take over what bin/hold-signals.mjs held; the listener counts must match.
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR2"];
const [command = "", flag] = process.argv.slice(2);
const preloaded = globalThis[Symbol.for("mm.preloadedSignals")];
if (flag === "--adopt") {
  const { holdEarlySignals } = await import("../../src/app/early-signals.ts");
  holdEarlySignals([command]);
  if (globalThis[Symbol.for("mm.preloadedSignals")] !== undefined) throw new Error("not adopted");
}
// One listener each: the preload's handlers are replaced, not joined.
const held = Object.fromEntries(SIGNALS.map((s) => [s, process.listenerCount(s)]));
process.stdout.write(`${JSON.stringify({ held, preloaded: preloaded !== undefined })}\n`);
