/**
 * `npm run soak -- --minutes N [--markets 100] [--sample-seconds S] [--warmup-minutes W] [--out FILE]`
 * (issue 8 item 4): paper trading under load, sampled, judged against the goals. See options.ts for
 * the flags and run.ts for what runs where. Exit 0 when every goal is met, 1 when one fails or the
 * run breaks, 2 on a bad flag.
 */
import { writeFile } from "node:fs/promises";
import { parseSoakArgs, SOAK_HELP, SoakUsageError } from "./options.js";
import { reportLines } from "./report.js";
import { runSoak } from "./run.js";

async function main(): Promise<number> {
  let opts: ReturnType<typeof parseSoakArgs>;
  try {
    opts = parseSoakArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof SoakUsageError)) throw err;
    process.stderr.write(`soak: ${err.message}\n\n${SOAK_HELP}\n`);
    return 2;
  }
  if (opts === "help") {
    process.stdout.write(`${SOAK_HELP}\n`);
    return 0;
  }
  const print = (line: string) => process.stdout.write(`${line}\n`);
  print(
    `soak: ${opts.minutes} min on ${opts.markets} markets, a sample every ${opts.sampleSeconds} s, warm-up ${opts.warmupMinutes} min`,
  );
  const report = await runSoak(opts, print);
  for (const line of reportLines(report)) print(line);
  if (opts.out !== undefined) {
    await writeFile(opts.out, `${JSON.stringify(report, null, 2)}\n`);
    print(`soak: report written to ${opts.out}`);
  }
  return report.pass ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`soak failed: ${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  },
);
