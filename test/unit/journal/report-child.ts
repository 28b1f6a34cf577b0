/*
 * `mm report --journal PATH` for each PATH argument, one JSON line each ({ code, out, err }): run by
 * report-read-only.test.ts as an unprivileged user when the tests run as root, for whom a read-only
 * folder is not read-only.
 */
import { reportCommand } from "../../../src/cli/report.js";

for (const path of process.argv.slice(2)) {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    stdout: (t: string) => out.push(t),
    stderr: (t: string) => err.push(t),
    env: {},
    cwd: "/",
  };
  const code = await reportCommand.run(["--journal", path], io);
  process.stdout.write(`${JSON.stringify({ code, out: out.join(""), err: err.join("") })}\n`);
}
