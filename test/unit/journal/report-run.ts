import { reportCommand } from "../../../src/cli/report.js";

/** What `mm report` answered: its exit code and everything it wrote to stdout and stderr. */
export interface ReportOutcome {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/**
 * Runs `mm report --journal PATH` in this process, its output captured. Shared by
 * report-read-only.test.ts and the child it runs as nobody (report-child.ts).
 */
export async function runReport(path: string): Promise<ReportOutcome> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), env: {}, cwd: "/" };
  const code = await reportCommand.run(["--journal", path], io);
  return { code, out: out.join(""), err: err.join("") };
}
