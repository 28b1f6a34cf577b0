#!/usr/bin/env node
// Launcher for the compiled CLI. In development, `npm run mm -- <command>` runs the TypeScript via tsx.
import { existsSync } from "node:fs";

const main = new URL("../dist/src/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("mm: the compiled CLI (dist/) is missing; run `npm run build` first\n");
  process.exit(1);
}
const { runCli } = await import(main.href);
await runCli(process.argv.slice(2));
