/*
 * `mm report --journal PATH` for each PATH argument, one JSON line each ({ code, out, err }): run by
 * report-read-only.test.ts as an unprivileged user when the tests run as root, for whom a read-only
 * folder is not read-only.
 */
import { runReport } from "./report-run.js";

for (const path of process.argv.slice(2)) {
  process.stdout.write(`${JSON.stringify(await runReport(path))}\n`);
}
