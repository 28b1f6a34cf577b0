#!/usr/bin/env node
// Launcher for the compiled CLI. In development, `npm run mm -- <command>` runs the TypeScript via tsx.
import { existsSync } from "node:fs";

const main = new URL("../dist/src/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("mm: the compiled CLI (dist/) is missing; run `npm run build` first\n");
  process.exit(1);
}
// Before loading the rest of mm (which takes a while): `mm run`/`mm paper`/`mm record` hold SIGTERM and
// the other stop signals from here on, so a `docker stop` while mm loads is not dropped (node is PID 1
// there).
const early = new URL("../dist/src/app/early-signals.js", import.meta.url);
const { holdEarlySignals } = await import(early.href);
holdEarlySignals(process.argv.slice(2));
const { runCli } = await import(main.href);
await runCli(process.argv.slice(2));
