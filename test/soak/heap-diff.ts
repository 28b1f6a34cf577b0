/**
 * Compares two V8 heap snapshots (e.g. the soak's `--heap-snapshots` pair) by object kind: for each
 * (node type, constructor or name) the count and shallow bytes in each, sorted by growth. A leak
 * shows as a kind whose count keeps rising between warm-up end and end.
 *
 *   node --import tsx test/soak/heap-diff.ts DIR/warmup-end.heapsnapshot DIR/end.heapsnapshot [TOP]
 */
import { readFileSync } from "node:fs";

interface Snapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: string[]; readonly node_types: [string[]] } };
  readonly nodes: number[];
  readonly strings: string[];
}

/** Count and shallow size per "type:name" (strings and code grouped by type only). */
export function summarise(file: string): Map<string, { count: number; bytes: number }> {
  const snap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const iType = fields.indexOf("type");
  const iName = fields.indexOf("name");
  const iSize = fields.indexOf("self_size");
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + iType] as number] ?? "?";
    const grouped =
      type === "string" || type === "code" || type === "concatenated string" || type === "sliced string";
    const key = grouped ? type : `${type}:${snap.strings[snap.nodes[i + iName] as number] ?? "?"}`;
    const e = out.get(key) ?? { count: 0, bytes: 0 };
    e.count++;
    e.bytes += snap.nodes[i + iSize] as number;
    out.set(key, e);
  }
  return out;
}

function main(): void {
  const [a, b, topArg] = process.argv.slice(2);
  if (a === undefined || b === undefined) {
    process.stderr.write("usage: heap-diff.ts BEFORE.heapsnapshot AFTER.heapsnapshot [TOP]\n");
    process.exit(2);
  }
  const before = summarise(a);
  const after = summarise(b);
  const keys = new Set([...before.keys(), ...after.keys()]);
  const rows = [...keys].map((k) => {
    const x = before.get(k) ?? { count: 0, bytes: 0 };
    const y = after.get(k) ?? { count: 0, bytes: 0 };
    return { k, dCount: y.count - x.count, dBytes: y.bytes - x.bytes, count: y.count, bytes: y.bytes };
  });
  rows.sort((p, q) => q.dBytes - p.dBytes);
  const total = (m: Map<string, { bytes: number }>) => [...m.values()].reduce((s, e) => s + e.bytes, 0);
  process.stdout.write(
    `shallow heap: ${(total(before) / 1e6).toFixed(1)} MB → ${(total(after) / 1e6).toFixed(1)} MB\n` +
      "   Δ bytes    Δ count      count  kind\n",
  );
  for (const r of rows.slice(0, Number(topArg ?? 30))) {
    process.stdout.write(
      `${String(r.dBytes).padStart(10)} ${String(r.dCount).padStart(10)} ${String(r.count).padStart(10)}  ${r.k}\n`,
    );
  }
}

main();
