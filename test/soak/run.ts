import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, platform, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { startDaemon } from "../../src/app/daemon.js";
import { observed } from "../../src/app/observed.js";
import { loggerOptions } from "../../src/config/logger-options.js";
import { createLogger } from "../../src/observability/logger.js";
import { errorsOf, SoakCounters } from "./counters.js";
import { liveHeapBytes } from "./live-heap.js";
import { startMockChild } from "./mock-child.js";
import type { SoakOptions } from "./options.js";
import { judge, rssAround, rssSlope, type Sample, type SoakReport, sampleLine } from "./report.js";
import { exchangeCalls, fileBytes, snapshot, soakConfig, soakJournal } from "./run-parts.js";

/** How often the metrics endpoint is scraped, as a Prometheus server would (its default interval). */
const SCRAPE_EVERY_MS = 15_000;
/**
 * Resolution of the event-loop delay monitors, ms. Node's histogram records the interval between its
 * timer's callbacks, i.e. this resolution plus the delay (an idle loop reads about 10.2 ms at 10 ms):
 * the figures below subtract it, so they are the delay itself.
 */
const ELD_RESOLUTION_MS = 10;

/** A recorded interval (ns) as an event-loop delay (ms). */
function delayMs(recordedNs: number): number {
  return Math.max(0, recordedNs / 1e6 - ELD_RESOLUTION_MS);
}

/**
 * One soak run: the mock (flow on) in a child process, the bot here as `mm run` assembles it
 * (daemon, metrics, /metrics server scraped every 15 s) with paper mode's settings, at info log
 * level into a sink that only counts. Samples every `sampleSeconds`; prints a line per sample.
 * Resolves with the report once the daemon has stopped and the mock is closed.
 */
export async function runSoak(o: SoakOptions, print: (line: string) => void): Promise<SoakReport> {
  const counters = new SoakCounters();
  const unwatch = counters.watchProcess();
  const eld = monitorEventLoopDelay({ resolution: ELD_RESOLUTION_MS });
  // Three monitors rather than one merged histogram: an IntervalHistogram cannot be added to another.
  const eldAll = monitorEventLoopDelay({ resolution: ELD_RESOLUTION_MS });
  const eldAfter = monitorEventLoopDelay({ resolution: ELD_RESOLUTION_MS });
  const dir = await mkdtemp(join(tmpdir(), "mm-soak-"));
  const mock = await startMockChild(o.markets);
  try {
    const config = soakConfig(mock, o.markets, dir);
    const logger = createLogger({
      ...loggerOptions(config),
      pretty: false,
      base: { cmd: "soak" },
      destination: counters.logSink,
    });
    const beforeStartBytes = process.memoryUsage().rss;
    print(
      `soak: mock exchange at ${mock.httpUrl} (child process); starting the bot on ${o.markets} markets…`,
    );
    const startAt = performance.now();
    const journal = soakJournal(config, dir);
    const daemon = await observed(config, logger, true, (metrics) =>
      startDaemon(config, {
        logger,
        metrics,
        listener: counters.onEvent,
        ...(journal === undefined ? {} : { journal }),
      }),
    );
    const startupSeconds = (performance.now() - startAt) / 1_000;
    let endedEarly: string | undefined;
    let stopping = false;
    void daemon.done.then((d) => {
      if (!stopping) endedEarly ??= `the daemon stopped by itself: exit ${d.exitCode} (${d.reason})`;
    });
    print(`soak: bot up in ${startupSeconds.toFixed(1)} s; metrics at ${daemon.observability.url}/metrics`);
    eld.enable();
    eldAll.enable();
    const t0 = performance.now();
    const elapsed = () => (performance.now() - t0) / 1_000;
    let cpuAt = { usage: process.cpuUsage(), tSec: 0 };
    let calls: Record<string, number> = {};
    const scrape = async () => {
      try {
        const res = await fetch(`${daemon.observability.url}/metrics`);
        const text = await res.text();
        if (res.status !== 200) counters.totals.scrapeFailures++;
        else calls = exchangeCalls(text);
      } catch {
        counters.totals.scrapeFailures++;
      }
    };
    const scraper = setInterval(() => void scrape(), SCRAPE_EVERY_MS);
    void scrape();
    const samples: Sample[] = [];
    const warmupSec = o.warmupMinutes * 60;
    const endSec = o.minutes * 60;
    let liveAtWarmupEnd: number | undefined;
    const take = async () => {
      const m = process.memoryUsage();
      const tSec = elapsed();
      const usage = process.cpuUsage(cpuAt.usage);
      const cpuPct = (((usage.user + usage.system) / 1e6) * 100) / Math.max(1e-3, tSec - cpuAt.tSec);
      cpuAt = { usage: process.cpuUsage(), tSec };
      const s: Sample = {
        tSec,
        rssBytes: m.rss,
        heapUsedBytes: m.heapUsed,
        heapTotalBytes: m.heapTotal,
        externalBytes: m.external,
        eldP99Ms: eld.count > 0 ? delayMs(eld.percentile(99)) : 0,
        eldMaxMs: eld.count > 0 ? delayMs(eld.max) : 0,
        placesSent: counters.totals.placesSent,
        fills: counters.totals.fills,
        errors: errorsOf(counters.totals, calls),
        unhandled: counters.totals.unhandled,
        mockRssBytes: undefined,
        load1: loadavg()[0] ?? 0,
        cpuPct,
      };
      eld.reset();
      const mockStats = await mock.stats(2_000);
      const sample = { ...s, mockRssBytes: mockStats?.rssBytes };
      samples.push(sample);
      print(sampleLine(sample));
      return sample;
    };
    const period = o.sampleSeconds * 1_000;
    for (let next = period; ; next += period) {
      const wait = t0 + Math.min(next, endSec * 1_000) - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const s = await take();
      // The live heap at the warm-up boundary is read after its RSS sample (a forced GC must not
      // lower the reference it is compared with).
      // The monitors pause around the forced GC: its stall is the measurement's, not the bot's.
      if (liveAtWarmupEnd === undefined && s.tSec >= warmupSec) {
        eld.disable();
        eldAll.disable();
        liveAtWarmupEnd = liveHeapBytes();
        snapshot(o.heapSnapshots, "warmup-end", print);
        for (const h of [eld, eldAll, eldAfter]) h.enable();
      }
      if (s.tSec >= endSec - 1e-3 || endedEarly !== undefined) break;
    }
    clearInterval(scraper);
    await scrape();
    for (const h of [eld, eldAll, eldAfter]) h.disable();
    const liveAtEnd = liveHeapBytes();
    snapshot(o.heapSnapshots, "end", print);
    stopping = true;
    const outcome = await daemon.stop("soak over");
    const openOnMock = (await mock.stats())?.openOrders;
    const journalBytes = journal === undefined ? undefined : fileBytes(journal.path);
    const last = samples[samples.length - 1] as Sample;
    // V8 grows and shrinks its heap in cycles of minutes under this load, so a single sample can sit
    // on a crest or in a trough: each reference is the median over a window, a fifth of the run up to
    // five minutes (never longer than the warm-up).
    const windowSeconds = Math.max(o.sampleSeconds, Math.min(300, endSec / 5, warmupSec));
    const warmupEndBytes = rssAround(samples, warmupSec, windowSeconds);
    const endBytes = rssAround(samples, last.tSec, windowSeconds);
    const after = samples.filter((s) => s.tSec > warmupSec);
    const maxAfter = Math.max(...after.map((s) => s.rssBytes), endBytes);
    const rss = {
      beforeStartBytes,
      warmupEndBytes,
      endBytes,
      growthPct: ((endBytes - warmupEndBytes) / warmupEndBytes) * 100,
      maxAfterWarmupBytes: maxAfter,
      maxGrowthPct: ((maxAfter - warmupEndBytes) / warmupEndBytes) * 100,
      slopeMbPerHour: (rssSlope(samples, warmupSec) * 3_600) / 1_048_576,
      windowSeconds,
    };
    const eldFigures = {
      p99Ms: eldAll.count > 0 ? delayMs(eldAll.percentile(99)) : 0,
      p99AfterWarmupMs: eldAfter.count > 0 ? delayMs(eldAfter.percentile(99)) : 0,
      maxMs: eldAll.count > 0 ? delayMs(eldAll.max) : 0,
      meanMs: eldAll.count > 0 ? delayMs(eldAll.mean) : 0,
    };
    const loads = samples.map((s) => s.load1);
    const botCpu = after.map((s) => s.cpuPct);
    const load = {
      mean: loads.reduce((a, b) => a + b, 0) / loads.length,
      max: Math.max(...loads),
      botCpuPct: botCpu.length === 0 ? 0 : botCpu.reduce((a, b) => a + b, 0) / botCpu.length,
    };
    const stop = {
      exitCode: endedEarly === undefined ? outcome.exitCode : 1,
      reason: endedEarly ?? outcome.reason,
      openOnMock,
    };
    const totals = { ...counters.totals };
    const goals = judge({ rss, eld: eldFigures, totals, stop });
    return {
      command: `npm run soak -- ${process.argv.slice(2).join(" ")}`.trim(),
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model.trim() ?? "unknown",
        node: process.versions.node,
        platform: `${platform()} ${process.arch}`,
      },
      markets: o.markets,
      minutes: o.minutes,
      sampleSeconds: o.sampleSeconds,
      warmupMinutes: o.warmupMinutes,
      startupSeconds,
      rss,
      heap: { liveAtWarmupEndBytes: liveAtWarmupEnd, liveAtEndBytes: liveAtEnd },
      eld: eldFigures,
      load,
      journalBytes,
      totals,
      errors: errorsOf(totals, calls),
      rejectCodes: Object.fromEntries(counters.rejectCodes),
      exchangeCalls: calls,
      firstErrors: [...counters.firstErrors],
      stop,
      goals,
      pass: goals.every((g) => g.pass),
      samples,
    };
  } finally {
    for (const h of [eld, eldAll, eldAfter]) h.disable();
    await mock.close();
    unwatch();
    await rm(dir, { recursive: true, force: true });
  }
}
