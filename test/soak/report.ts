import { failedCalls, type SoakTotals } from "./counters.js";

/** One sample of the bot process. */
export interface Sample {
  /** Seconds since the daemon was up (the run's start). */
  readonly tSec: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  readonly heapTotalBytes: number;
  readonly externalBytes: number;
  /** Event-loop delay over the interval since the previous sample, ms. */
  readonly eldP99Ms: number;
  readonly eldMaxMs: number;
  readonly placesSent: number;
  readonly fills: number;
  readonly errors: number;
  readonly unhandled: number;
  /** The mock's RSS (its own process), when it answered. */
  readonly mockRssBytes: number | undefined;
  /** The machine's 1-minute load average (other processes compete for the same cores). */
  readonly load1: number;
  /** CPU time of the bot's process over the interval, % of one core (all its threads). */
  readonly cpuPct: number;
}

/** One goal and how the run did against it. */
export interface GoalResult {
  readonly goal: string;
  readonly value: string;
  readonly pass: boolean;
}

/** Everything the soak measured. */
export interface SoakReport {
  readonly command: string;
  readonly machine: { cpus: number; model: string; node: string; platform: string };
  readonly markets: number;
  readonly minutes: number;
  readonly sampleSeconds: number;
  readonly warmupMinutes: number;
  /** Seconds to start the daemon: markets read, feeds subscribed, start-up reconcile done, quoting on. */
  readonly startupSeconds: number;
  readonly rss: {
    /** RSS before the daemon was built (the soak runner itself). */
    readonly beforeStartBytes: number;
    /** Median RSS over the reference window ending at the end of warm-up. */
    readonly warmupEndBytes: number;
    /** Median RSS over the reference window ending at the end of the run. */
    readonly endBytes: number;
    readonly growthPct: number;
    readonly maxAfterWarmupBytes: number;
    /** (max after warm-up − warm-up end) / warm-up end: the pessimistic reading. */
    readonly maxGrowthPct: number;
    /** Least-squares slope of RSS after warm-up, MB per hour. */
    readonly slopeMbPerHour: number;
    /** Length of the two reference windows, seconds. */
    readonly windowSeconds: number;
  };
  readonly heap: {
    /** Heap in use after a full GC at the end of warm-up and at the end (live objects only). */
    readonly liveAtWarmupEndBytes: number | undefined;
    readonly liveAtEndBytes: number | undefined;
  };
  readonly eld: {
    readonly p99Ms: number;
    readonly p99AfterWarmupMs: number;
    readonly maxMs: number;
    readonly meanMs: number;
  };
  /** Size of the journal (SQLite file, WAL and shared memory) at the end, when one was kept. */
  readonly journalBytes: number | undefined;
  /** The machine's 1-minute load average over the samples. */
  readonly load: { readonly mean: number; readonly max: number; readonly botCpuPct: number };
  readonly totals: SoakTotals;
  readonly errors: number;
  readonly rejectCodes: Record<string, number>;
  /** Exchange calls by "METHOD /route outcome", and 429s by operation (from the bot's own metrics). */
  readonly exchangeCalls: Record<string, number>;
  readonly firstErrors: readonly string[];
  readonly stop: {
    readonly exitCode: number;
    readonly reason: string;
    readonly openOnMock: number | undefined;
  };
  readonly goals: readonly GoalResult[];
  readonly pass: boolean;
  readonly samples: readonly Sample[];
}

/** The goals of issue 8 item 4. */
export const GOALS = { rssGrowthPct: 10, eldP99Ms: 50, unhandled: 0 } as const;

/** Median of the RSS samples with tSec in (end − window, end]; the sample nearest `end` when none. */
export function rssAround(samples: readonly Sample[], endSec: number, windowSec: number): number {
  const inWindow = samples.filter((s) => s.tSec <= endSec + 1e-9 && s.tSec > endSec - windowSec);
  const pick = inWindow.length > 0 ? inWindow : [nearest(samples, endSec)];
  const sorted = pick.map((s) => s.rssBytes).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function nearest(samples: readonly Sample[], tSec: number): Sample {
  let best = samples[0];
  if (best === undefined) throw new Error("no samples");
  for (const s of samples) if (Math.abs(s.tSec - tSec) < Math.abs(best.tSec - tSec)) best = s;
  return best;
}

/** Least-squares slope of RSS over the samples from `fromSec`, bytes per second (0 with < 2 samples). */
export function rssSlope(samples: readonly Sample[], fromSec: number): number {
  const xs = samples.filter((s) => s.tSec >= fromSec);
  if (xs.length < 2) return 0;
  const mx = xs.reduce((a, s) => a + s.tSec, 0) / xs.length;
  const my = xs.reduce((a, s) => a + s.rssBytes, 0) / xs.length;
  let num = 0;
  let den = 0;
  for (const s of xs) {
    num += (s.tSec - mx) * (s.rssBytes - my);
    den += (s.tSec - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** The verdict against GOALS. */
export function judge(r: Pick<SoakReport, "rss" | "eld" | "totals" | "stop">): GoalResult[] {
  return [
    {
      goal: `RSS growth after warm-up < ${GOALS.rssGrowthPct}%`,
      value: `${r.rss.growthPct.toFixed(2)}%`,
      pass: r.rss.growthPct < GOALS.rssGrowthPct,
    },
    {
      goal: `event-loop delay p99 < ${GOALS.eldP99Ms} ms`,
      value: `${r.eld.p99Ms.toFixed(2)} ms`,
      pass: r.eld.p99Ms < GOALS.eldP99Ms,
    },
    {
      goal: "zero unhandled errors",
      value: String(r.totals.unhandled),
      pass: r.totals.unhandled === GOALS.unhandled,
    },
    {
      goal: "clean stop (every quote cancelled, exit code 0)",
      value: `exit ${r.stop.exitCode} (${r.stop.reason}), ${r.stop.openOnMock ?? "?"} open on the mock`,
      pass: r.stop.exitCode === 0 && r.stop.openOnMock === 0,
    },
  ];
}

const mb = (b: number | undefined): string => (b === undefined ? "?" : `${(b / 1_048_576).toFixed(1)} MB`);

/** One progress line. */
export function sampleLine(s: Sample): string {
  const t = `t=${s.tSec.toFixed(0).padStart(5)}s`;
  return (
    `${t} rss ${mb(s.rssBytes)} heap ${mb(s.heapUsedBytes)}/${mb(s.heapTotalBytes)} ` +
    `eld p99 ${s.eldP99Ms.toFixed(1)} ms max ${s.eldMaxMs.toFixed(1)} ms cpu ${s.cpuPct.toFixed(0)}% | orders ${s.placesSent} ` +
    `fills ${s.fills} errors ${s.errors} unhandled ${s.unhandled} | mock rss ${mb(s.mockRssBytes)} | load ${s.load1.toFixed(1)}`
  );
}

/** The final report as text lines. */
export function reportLines(r: SoakReport): string[] {
  const t = r.totals;
  const codes = Object.entries(r.rejectCodes)
    .map(([c, n]) => `${c} ${n}`)
    .join(", ");
  const lines = [
    "",
    `soak report: ${r.markets} markets (${r.markets * 2} tokens), ${r.minutes} min measured after a ${r.startupSeconds.toFixed(1)} s start-up`,
    `machine: ${r.machine.cpus} cores, ${r.machine.model}, Node ${r.machine.node} on ${r.machine.platform}`,
    `warm-up: first ${r.warmupMinutes} min; RSS references are medians over ${r.rss.windowSeconds.toFixed(0)} s windows`,
    `RSS at warm-up end  ${mb(r.rss.warmupEndBytes)}   (before the daemon: ${mb(r.rss.beforeStartBytes)})`,
    `RSS at end          ${mb(r.rss.endBytes)}`,
    `RSS growth          ${r.rss.growthPct.toFixed(2)}%   (max after warm-up ${mb(r.rss.maxAfterWarmupBytes)}, ${r.rss.maxGrowthPct.toFixed(2)}%; slope ${r.rss.slopeMbPerHour.toFixed(1)} MB/h)`,
    `live heap after GC  ${mb(r.heap.liveAtWarmupEndBytes)} at warm-up end → ${mb(r.heap.liveAtEndBytes)} at end`,
    `event-loop delay    p99 ${r.eld.p99Ms.toFixed(2)} ms (after warm-up ${r.eld.p99AfterWarmupMs.toFixed(2)} ms), mean ${r.eld.meanMs.toFixed(2)} ms, max ${r.eld.maxMs.toFixed(1)} ms`,
    `machine load        1-min load average ${r.load.mean.toFixed(1)} mean, ${r.load.max.toFixed(1)} max, on ${r.machine.cpus} cores; the bot used ${r.load.botCpuPct.toFixed(0)}% of one core after warm-up`,
    `orders sent         ${t.placesSent} (accepted ${t.placesAccepted}, rejected ${t.placesRejected}${codes === "" ? "" : `: ${codes}`}, ambiguous ${t.ambiguous}); cancels ${t.cancels} (+ ${t.cancelsNotSent} of placements dropped before sending)`,
    `fills               ${t.fills} (${t.fillsBackfilled} backfilled by a reconcile); reconciles ${t.reconciles}`,
    `errors              ${r.errors} (failed exchange requests ${failedCalls(r.exchangeCalls)}, failed reconciles ${t.reconcilesFailed}, error log lines ${t.loggedErrors}, failed scrapes ${t.scrapeFailures}); warnings logged ${t.loggedWarnings}; cancel intents failed ${t.cancelsFailed}`,
    `unhandled errors    ${t.unhandled}`,
    `exchange calls      ${
      Object.entries(r.exchangeCalls)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ") || "none scraped"
    }`,
    `journal             ${r.journalBytes === undefined ? "off" : `${mb(r.journalBytes)} on disk at the end`}`,
    `stop                exit ${r.stop.exitCode} (${r.stop.reason}); open orders on the mock after stop: ${r.stop.openOnMock ?? "?"}`,
    ...r.firstErrors.map((e) => `  first errors: ${e}`),
    "verdict:",
    ...r.goals.map((g) => `  ${g.pass ? "PASS" : "FAIL"}  ${g.goal}: ${g.value}`),
    r.pass ? "soak: every goal met" : "soak: a goal failed",
  ];
  return lines;
}
