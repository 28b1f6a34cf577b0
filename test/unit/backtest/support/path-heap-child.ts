// Run as `node --expose-gc --import tsx path-heap-child.ts FIRST SECOND`: runs synthetic paths one
// after another as runSynthetic does (never yielding to the event loop) and prints, as JSON, the
// old-space bytes retained per path between path FIRST and path SECOND after forced collections,
// and the object kinds (heap snapshot "type:name", code excluded) whose count grew by at least
// one for every two paths of that window.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHeapSpaceStatistics, writeHeapSnapshot } from "node:v8";
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

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");
const [first, second] = process.argv.slice(2).map(Number) as [number, number];
const dir = mkdtempSync(join(tmpdir(), "mm-path-heap-"));

/** Old-space bytes in use after full collections (no event-loop turn: finalizers cannot run). */
function oldSpace(): number {
  for (let i = 0; i < 4; i++) gc?.();
  return getHeapSpaceStatistics().find((s) => s.space_name === "old_space")?.space_used_size ?? 0;
}

interface Snapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: string[]; readonly node_types: [string[]] } };
  readonly nodes: number[];
  readonly strings: string[];
}

/** Objects in a heap snapshot by "type:name" (strings by type only; compiled code left out). */
function kinds(file: string): Map<string, number> {
  const snap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [iType, iName] = [fields.indexOf("type"), fields.indexOf("name")];
  const out = new Map<string, number>();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + iType] as number] ?? "?";
    if (type === "code") continue;
    const key = type.includes("string") ? type : `${type}:${snap.strings[snap.nodes[i + iName] as number]}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

// The snapshots are read only at the end: what reading them builds is not the paths'.
let at = 0;
let snapA = "";
for (let i = 0; i < second; i++) {
  await runPath(SCENARIO, i);
  if (i + 1 === first) {
    at = oldSpace();
    snapA = writeHeapSnapshot(join(dir, "a.heapsnapshot"));
  }
}
const perPath = (oldSpace() - at) / (second - first);
const snapB = writeHeapSnapshot(join(dir, "b.heapsnapshot"));
const before = kinds(snapA);
const grown = [...kinds(snapB)]
  .filter(([k, n]) => n - (before.get(k) ?? 0) >= (second - first) / 2)
  .map(([k]) => k);
rmSync(dir, { recursive: true, force: true });
process.stdout.write(JSON.stringify({ perPath, grown }));
