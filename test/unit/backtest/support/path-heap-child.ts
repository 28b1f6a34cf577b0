// Run as `node --jitless --no-flush-bytecode --import tsx path-heap-child.ts FIRST SECOND`:
// runs synthetic paths one after another as runSynthetic does (never yielding to the event loop),
// takes a heap snapshot after path FIRST and after path SECOND, and prints, as JSON, the bytes
// retained per path between the two (the snapshots' objects, summed) and the object kinds (heap
// snapshot "type:name", code excluded) whose count grew by at least one for every two paths.
//
// Why these flags and snapshots, not the old space's size: with the JIT on, optimised code comes
// and goes (tier-ups, deopts, their dependent-code lists and retained maps) at times that depend on
// the background compiler, so the old space moved by ±100–250 B a path from one window to the next
// and more under load; --jitless runs the interpreter only (no code is made at run time) and
// --no-flush-bytecode keeps the bytecode of functions run once. The old space also carries V8's
// caches (the number-to-string cache alone is 256 KB), whose size depends on what the last full
// collection was; every heap snapshot starts with the same collection, so the two are comparable.
// What a path leaves behind is the same object graph whatever compiles it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeHeapSnapshot } from "node:v8";
import { runPath } from "../../../../src/backtest/synthetic/run-path.js";
import { parseScenario } from "../../../../src/backtest/synthetic/scenario.js";

/** One path of a single 1 s step: a whole session (start, quote, stop) at the least cost. */
const SCENARIO = parseScenario([
  {
    seed: 5,
    paths: 1,
    process: { s0: "0.5", sigma: 0.002, dtMs: 1_000, horizonMs: 1_000, increments: "normal" },
    fills: { A: 0.5, k: 200, probability: "exponential", size: "1" },
    market: { tick: "0.000001", minSize: "0.000001" },
    strategy: { name: "avellaneda-stoikov", params: { gamma: 5, k: 200, orderSize: "1", sigma: 0.002 } },
    wallet: { usdc: "100", shares: "100" },
  },
]);

const [first, second] = process.argv.slice(2).map(Number) as [number, number];
const dir = mkdtempSync(join(tmpdir(), "mm-path-heap-"));

interface Snapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: string[]; readonly node_types: [string[]] } };
  readonly nodes: number[];
  readonly strings: string[];
}

/** A heap snapshot's total bytes, and its objects by "type:name" (strings by type only, code left out). */
function read(file: string): { bytes: number; kinds: Map<string, number> } {
  const snap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [iType, iName, iSize] = [fields.indexOf("type"), fields.indexOf("name"), fields.indexOf("self_size")];
  const kinds = new Map<string, number>();
  let bytes = 0;
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    bytes += snap.nodes[i + iSize] as number;
    const type = types[snap.nodes[i + iType] as number] ?? "?";
    if (type === "code") continue;
    const key = type.includes("string") ? type : `${type}:${snap.strings[snap.nodes[i + iName] as number]}`;
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  return { bytes, kinds };
}

// The snapshots are read only at the end: what reading them builds is not the paths'.
let snapA = "";
for (let i = 0; i < second; i++) {
  await runPath(SCENARIO, i);
  if (i + 1 === first) snapA = writeHeapSnapshot(join(dir, "a.heapsnapshot"));
}
const snapB = writeHeapSnapshot(join(dir, "b.heapsnapshot"));
const [a, b] = [read(snapA), read(snapB)];
const perPath = (b.bytes - a.bytes) / (second - first);
const grown = [...b.kinds]
  .filter(([k, n]) => n - (a.kinds.get(k) ?? 0) >= (second - first) / 2)
  .map(([k]) => k);
rmSync(dir, { recursive: true, force: true });
process.stdout.write(JSON.stringify({ perPath, grown }));
