import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchCase, printResults, runCases } from "./harness.js";

/**
 * `npm run bench [filter]`: runs every test/bench/*.bench.ts (or those whose name contains the
 * filter) and prints ops/s with ratios against each file's baseline case.
 */
const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? "";
const seconds = Number(process.env.BENCH_SECONDS ?? "2");
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts") && f.includes(filter))
  .sort();
console.log(`node ${process.version}, ${process.arch}; ${seconds}s per case`);
for (const f of files) {
  const mod = (await import(join(here, f))) as {
    title?: string;
    benches: () => Promise<BenchCase[]> | BenchCase[];
  };
  printResults(mod.title ?? f, await runCases(await mod.benches(), seconds));
}
