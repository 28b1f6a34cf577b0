import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { readRecordedBatches } from "../../src/recorded/format.js";
import type { BenchCase } from "./harness.js";
import { measureReplay, type ReplayMeasure } from "./replay/replay-run.js";
import { type InMemory, loadRecording, replayStage, type Stage } from "./replay/stage-run.js";
import { type SyntheticStats, writeSyntheticRecording } from "./replay/synthetic-recording.js";

export const title = "Backtest replay (issue 6): L2 deltas/s with a strategy in the loop";

/*
 * One op = one L2 delta (one price-level change of a book_delta frame) of the recorded format,
 * replayed through the whole backtest: gzip JSONL reader, the gateway's parser, the exchange's
 * book and the mirror of the recorded liquidity into the SimVenue, the BookTracker a feed latency
 * later, and the unchanged engine (bands strategy, risk guard, order manager, rate-aware queue,
 * reconciler) trading against the venue on the SimClock. Recordings are generated, seeded, into a
 * private temp dir (synthetic-recording.ts: 6 tokens, ~100 levels a side, most changes away from
 * the touch, some at it, occasional trades).
 *
 * Cases: the baseline only reads and JSON.parses the recording (the floor any replay pays); then
 * the replay in process, with busy frames (mean 5.5 changes); an ablation of it from frames held
 * in memory (stage-run.ts: the exchange side alone, then with the tracker and engine, then with
 * the mirror), which says what each part costs per delta; Polymarket-like frames (mean 1.6); then the 1× recording replayed in a child process per batch, whose peak RSS is compared
 * with a 10× recording's, replayed once, also in its own process (so the two share no heap).
 * Every replay is checked: every frame read and applied (none malformed or refused), orders
 * placed and fills made.
 *
 * Sizes: MM_BENCH_REPLAY_DELTAS (default 200,000) for the in-process cases, MM_BENCH_MEMORY_DELTAS
 * (default 1,000,000; the 10× run is ten times that) for the memory case. The whole file takes
 * several minutes: the 10× recording alone is ~1.8 million frames.
 */

const IN_PROCESS = Number(process.env.MM_BENCH_REPLAY_DELTAS ?? 200_000);
const MEMORY = Number(process.env.MM_BENCH_MEMORY_DELTAS ?? 1_000_000);
const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

function check(m: ReplayMeasure, s: SyntheticStats, what: string): void {
  const problems: string[] = [];
  if (m.frames !== s.frames) problems.push(`read ${m.frames} of ${s.frames} frames`);
  if (m.bookFrames !== s.deltaFrames + s.snapshots) {
    problems.push(`applied ${m.bookFrames} of ${s.deltaFrames + s.snapshots} book frames`);
  }
  if (m.malformed > 0 || m.rejected > 0) problems.push(`${m.malformed} malformed, ${m.rejected} refused`);
  if (m.placed === 0) problems.push("no order placed");
  if (m.fills === 0) problems.push("no fill");
  if (problems.length > 0) throw new Error(`${what}: ${problems.join("; ")}`);
}

async function child(data: string): Promise<ReplayMeasure> {
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", join(here, "replay", "replay-run.ts"), data],
    {
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as ReplayMeasure;
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000).toLocaleString("en-US");

function report(label: string, deltas: number, ms: ReplayMeasure[]): void {
  const m = [...ms].sort((a, b) => a.ms - b.ms)[Math.floor(ms.length / 2)] as ReplayMeasure;
  console.log(
    `  ${label}: ${deltas.toLocaleString("en-US")} deltas, ${m.frames.toLocaleString("en-US")} frames in ` +
      `${(m.ms / 1000).toFixed(1)} s (${rate(deltas, m.ms)} deltas/s wall, ${rate(deltas, m.cpuMs)} per CPU-s), ` +
      `${m.placed} orders, ${m.fills} fills; peak RSS ${mb(m.maxRssBytes)}, heap high-water ${mb(m.heapHighBytes)}`,
  );
}

export async function benches(): Promise<BenchCase[]> {
  const dir = mkdtempSync(join(tmpdir(), "mm-bench-replay-"));
  const busy = join(dir, "busy.jsonl.gz");
  const thin = join(dir, "thin.jsonl.gz");
  const busyStats = await writeSyntheticRecording(busy, { deltas: IN_PROCESS, seed: 1, meanChanges: 6 });
  const thinStats = await writeSyntheticRecording(thin, { deltas: IN_PROCESS, seed: 2, meanChanges: 2 });
  const one = join(dir, "one.jsonl.gz");
  const ten = join(dir, "ten.jsonl.gz");
  let oneStats: SyntheticStats | undefined;
  let tenRun: ReplayMeasure | undefined;
  const oneRuns: ReplayMeasure[] = [];
  let inProcess: ReplayMeasure[] = [];
  const replayCase = (name: string, data: string, stats: SyntheticStats): BenchCase => ({
    name,
    batch: stats.deltas,
    run: async () => {
      const m = await measureReplay(data);
      check(m, stats, name);
      if (data === busy) inProcess.push(m);
    },
  });
  let inMemory: InMemory | undefined;
  const stageCase = (stage: Stage, label: string): BenchCase => ({
    name: `frames in memory, ${label}`,
    batch: busyStats.deltas,
    setup: async () => {
      inMemory ??= await loadRecording(busy);
    },
    run: async () => {
      const r = await replayStage(inMemory as InMemory, stage);
      if (r.frames !== busyStats.frames)
        throw new Error(`${stage}: replayed ${r.frames} of ${busyStats.frames} frames`);
      if (stage !== "exchange" && r.placed === 0) throw new Error(`${stage}: the engine placed nothing`);
    },
  });
  return [
    {
      name: "read + JSON.parse only, no replay (baseline)",
      baseline: true,
      batch: busyStats.deltas,
      run: async () => {
        let frames = 0;
        for await (const b of readRecordedBatches(busy)) frames += b.length;
        if (frames !== busyStats.frames)
          throw new Error(`baseline read ${frames} of ${busyStats.frames} frames`);
      },
    },
    replayCase(
      `replay, bands in the loop (${(busyStats.deltas / busyStats.deltaFrames).toFixed(1)} deltas/frame)`,
      busy,
      busyStats,
    ),
    stageCase("exchange", "exchange side only: parser, exchange book, feed timers (ablation)"),
    stageCase("engine", "+ tracker and engine, no mirror (ablation)"),
    stageCase("full", "+ mirror: the replay without reading (ablation)"),
    replayCase(
      `replay, Polymarket-like frames (${(thinStats.deltas / thinStats.deltaFrames).toFixed(1)} deltas/frame)`,
      thin,
      thinStats,
    ),
    {
      name: `replay of ${MEMORY.toLocaleString("en-US")} deltas in a child process`,
      batch: MEMORY,
      setup: async () => {
        // 10 ms between frames: the 1× run covers 30 simulated minutes, three times the venue's
        // 10-minute retention window, so both runs hold their steady state of orders and trades.
        const shape = { seed: 3, meanChanges: 6, stepMs: 10 };
        oneStats = await writeSyntheticRecording(one, { deltas: MEMORY, ...shape });
        const tenStats = await writeSyntheticRecording(ten, { deltas: 10 * MEMORY, ...shape });
        tenRun = await child(ten);
        check(tenRun, tenStats, "10× replay");
      },
      run: async () => {
        const m = await child(one);
        check(m, oneStats as SyntheticStats, "1× replay");
        oneRuns.push(m);
      },
      teardown: () => {
        console.log(`\n  (${title}: details)`);
        report("in process, busy frames (median)", busyStats.deltas, inProcess);
        report("child, 1×", MEMORY, oneRuns);
        if (tenRun !== undefined) report("child, 10×", 10 * MEMORY, [tenRun]);
        const median = [...oneRuns].sort((a, b) => a.maxRssBytes - b.maxRssBytes)[
          Math.floor(oneRuns.length / 2)
        ];
        if (tenRun !== undefined && median !== undefined) {
          const ratio = tenRun.maxRssBytes / median.maxRssBytes;
          console.log(
            `  peak RSS 10× / 1× (median run) = ${ratio.toFixed(2)} (goal ≤ 1.20: ${ratio <= 1.2 ? "met" : "NOT met"}); ` +
              `heap high-water 10× / 1× = ${(tenRun.heapHighBytes / median.heapHighBytes).toFixed(2)}`,
          );
        }
        inProcess = [];
        rmSync(dir, { recursive: true, force: true });
      },
    },
  ];
}
